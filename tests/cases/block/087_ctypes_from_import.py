# expect: block SG401@2 SG403@3
from ctypes import CDLL
CDLL(None).system(b"id")
