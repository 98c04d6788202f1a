# expect: memory_limit
# expect-rlimit: exception
# Growing past the cgroup limit: an OOM kill or a refused charge the supervisor reads from the
# cgroup. Under rlimits only (no usable cgroup) it is the snippet's own MemoryError.
# args: --memory 64
x = []
while True:
    x.append(bytearray(1 << 20))
