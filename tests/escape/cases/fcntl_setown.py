# expect: forbidden_syscall
# syscall: fcntl
# Owner and signal settings of a descriptor (SIGIO to another process) are not needed by Python.
import fcntl, os
r, w = os.pipe()
fcntl.fcntl(r, fcntl.F_SETOWN, os.getpid())
print("owned")
