# expect: exception
# stdout-excludes: allocated
# One terabyte at once: refused by the kernel's overcommit check before any limit is reached, so
# it is the snippet's MemoryError (an exception), not a memory limit the supervisor observed.
x = bytearray(1 << 40)
print("allocated")
