# expect: block SG402@2
from cffi import FFI

ffi = FFI()
