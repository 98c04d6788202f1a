# expect: exception
# env: SNIPGATE_NO_CGROUP=1
# args: --memory 64 --tmp 200 --fsize 200
# stdout-excludes: wrote 100
# Under rlimits only, tmpfs pages are not in RLIMIT_AS: /tmp is capped at a quarter of the memory
# limit (16 MiB here) whatever --tmp asks, and the outcome's limits say so.
chunk = b"x" * (1 << 20)
with open("/tmp/fill", "wb") as f:
    for i in range(1, 101):
        f.write(chunk)
        f.flush()
print("wrote", i)
