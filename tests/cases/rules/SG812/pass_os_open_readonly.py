# expect: pass
import os
fd = os.open(os.path.expanduser("~/.bashrc"), os.O_RDONLY)
data = os.read(fd, 100)
os.close(fd)
