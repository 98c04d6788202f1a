# expect: forbidden_syscall
# syscall: ptrace
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(101, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
