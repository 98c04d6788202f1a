# expect: exception
# env: SNIPGATE_NO_CGROUP=1
# args: --tasks 64 --memory 16G
# stdout-excludes: started 400
# Without a usable cgroup the task limit is RLIMIT_NPROC, which the kernel does not enforce for
# host uid 0: the sandbox's host id must make it hold. (A large --memory, so that the address-space
# limit is not what stops the threads.)
import threading, time
stop = threading.Event()
n = 0
for n in range(1, 401):
    threading.Thread(target=stop.wait, daemon=True).start()
print("started", n)
