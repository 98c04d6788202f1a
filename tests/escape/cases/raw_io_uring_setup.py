# expect: forbidden_syscall
# syscall: io_uring_setup
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(425, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
