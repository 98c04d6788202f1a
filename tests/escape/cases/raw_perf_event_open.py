# expect: forbidden_syscall
# syscall: perf_event_open
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(298, 0, 0, 0, 0, 0)
print("returned", r, ctypes.get_errno())
