# expect: forbidden_syscall
# syscall: setns
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(308, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
