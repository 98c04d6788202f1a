# expect: forbidden_syscall
# syscall: kill
# A SIGILL the candidate sends itself would look like the kernel's answer to uretprobe: sending
# SIGILL is a forbidden call.
import os, signal
os.kill(os.getpid(), signal.SIGILL)
print("alive")
