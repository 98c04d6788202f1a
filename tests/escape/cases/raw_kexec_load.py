# expect: forbidden_syscall
# syscall: kexec_load
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(246, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
