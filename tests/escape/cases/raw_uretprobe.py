# expect: forbidden_syscall
# syscall: uretprobe|#335
# stdout-excludes: returned
# (kernels before 6.11 have no syscall 335: seccomp refuses it as #335)
# uretprobe (x86-64 syscall 335) is run by kernels from 6.11 without consulting seccomp; outside a
# uprobe trampoline the kernel ends the caller with SIGILL. Nothing in the sandbox may send SIGILL,
# so that death is reported as this forbidden call (not as a signal the candidate raised).
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(335)
print("returned", r, ctypes.get_errno())
