# expect: ok
# check: sentinel_alive
import os, signal, time
for s in (signal.SIGTERM, signal.SIGSEGV):
    os.kill(os.getppid(), s)
os.kill(1, signal.SIGTERM)
time.sleep(0.1)
print("parent", os.getppid())
