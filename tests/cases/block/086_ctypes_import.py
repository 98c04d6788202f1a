# expect: block SG401@2 SG403@3
import ctypes
libc = ctypes.CDLL("libc.so.6")
