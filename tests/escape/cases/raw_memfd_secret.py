# expect: forbidden_syscall
# syscall: memfd_secret
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(447, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
