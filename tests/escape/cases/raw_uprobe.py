# expect: ok|forbidden_syscall
# uprobe (x86-64 syscall 336, kernels from 6.17) also skips seccomp; outside a uprobe trampoline it
# fails with ENXIO (6) and does nothing else: the supervisor never sees it (docs/sandbox.md);
# older kernels have no syscall 336 and seccomp refuses it.
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
r = libc.syscall(336)
print("returned", r, ctypes.get_errno())
