# expect: exception
# args: --fsize 1
# stdout-excludes: wrote
with open("/tmp/big", "wb") as f:
    for _ in range(64):
        f.write(b"x" * (1 << 20))
print("wrote")
