# expect: forbidden_syscall
import ctypes
print(ctypes.CDLL(None).syscall(0x40000000 | 39))
