# expect: forbidden_syscall
# syscall: process_vm_writev
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(311, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
