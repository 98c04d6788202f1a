# expect: forbidden_syscall
# syscall: init_module
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(175, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
