# expect: forbidden_syscall
# syscall: unshare
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(272, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
