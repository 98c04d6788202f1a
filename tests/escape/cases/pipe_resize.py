# expect: forbidden_syscall
# syscall: fcntl
# F_SETPIPE_SZ grows a pipe's kernel buffer (up to 1 MiB each) outside the memory limit.
import fcntl, os
r, w = os.pipe()
fcntl.fcntl(w, 1031, 1 << 20)  # F_SETPIPE_SZ
print("resized")
