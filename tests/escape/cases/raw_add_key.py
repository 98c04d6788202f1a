# expect: forbidden_syscall
# syscall: add_key
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(248, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
