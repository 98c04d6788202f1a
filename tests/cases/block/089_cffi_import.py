# expect: block SG402@2
import cffi
ffi = cffi.FFI()
