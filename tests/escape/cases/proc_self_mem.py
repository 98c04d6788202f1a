# expect: exception
import ctypes
b = bytearray(b"before")
addr = ctypes.addressof((ctypes.c_char * len(b)).from_buffer(b))
with open("/proc/self/mem", "r+b", buffering=0) as m:
    m.seek(addr)
    m.write(b"AFTER!")
print(b)
with open("/proc/1/mem", "r+b", buffering=0) as m:
    m.write(b"x")
