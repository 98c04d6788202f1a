# expect: exception
# args: --tmp 1 --fsize 64
with open("/tmp/fill", "wb") as f:
    for _ in range(64):
        f.write(b"x" * (1 << 20))
