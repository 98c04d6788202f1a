# expect: forbidden_syscall
# syscall: pivot_root
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(155, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
