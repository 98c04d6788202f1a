# expect: forbidden_syscall
# syscall: personality
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(135, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
