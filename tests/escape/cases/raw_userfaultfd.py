# expect: forbidden_syscall
# syscall: userfaultfd
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(323, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
