# expect: forbidden_syscall
# syscall: keyctl
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(250, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
