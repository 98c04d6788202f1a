# expect: pass
import os
fd = os.open("/tmp/out.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
os.write(fd, b"done\n")
