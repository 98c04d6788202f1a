# expect: exception
# A class of the snippet's own named MemoryError is not the memory limit.
class MemoryError(Exception):
    pass
raise MemoryError("pretend")
