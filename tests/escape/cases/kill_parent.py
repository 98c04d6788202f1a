# expect: ok
# check: sentinel_alive
import os, signal, time
for s in (signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV):
    os.kill(os.getppid(), s)
os.kill(1, signal.SIGKILL)
time.sleep(0.1)
print("parent", os.getppid())
