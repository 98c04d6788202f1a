# expect: block SG401@2
import ctypes

size = ctypes.sizeof(ctypes.c_int)
