# expect: forbidden_syscall
# syscall: kill
# check: sentinel_alive
# SIGKILL is never sent from inside the sandbox (only snipgate sends it, so a SIGKILL death it did
# not cause is known to come from outside): kill(-1, SIGKILL) is a forbidden call.
import os, signal
os.kill(-1, signal.SIGKILL)
print("alive")
