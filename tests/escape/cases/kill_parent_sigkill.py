# expect: forbidden_syscall
# syscall: kill
# check: sentinel_alive
import os, signal
os.kill(os.getppid(), signal.SIGKILL)
print("parent", os.getppid())
