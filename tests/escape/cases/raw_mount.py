# expect: forbidden_syscall
# syscall: mount
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(165, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
