# expect: forbidden_syscall
# syscall: setuid
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(105, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
