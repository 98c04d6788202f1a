# expect: forbidden_syscall
# syscall: bpf
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(321, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
