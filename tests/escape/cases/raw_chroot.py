# expect: forbidden_syscall
# syscall: chroot
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(161, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
