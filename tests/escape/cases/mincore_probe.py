# expect: forbidden_syscall
# syscall: mincore
# mincore on a mapping of a shared host file tells which of its pages the host has in its page
# cache (a channel to the host and to other sandboxes).
import ctypes, mmap
f = open("/usr/lib/python3.11/os.py", "rb")
m = mmap.mmap(f.fileno(), 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE, flags=mmap.MAP_PRIVATE)
addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
vec = (ctypes.c_ubyte * 1)()
ctypes.CDLL(None).syscall(27, ctypes.c_void_p(addr), ctypes.c_size_t(4096), vec)  # SYS_mincore
print("resident:", vec[0])
