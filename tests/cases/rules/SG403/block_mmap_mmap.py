# expect: block SG403@4
import mmap

buf = mmap.mmap(-1, 4096)
