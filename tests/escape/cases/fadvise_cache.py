# expect: forbidden_syscall
# syscall: fadvise64
# posix_fadvise(DONTNEED) on a shared host file evicts the host's cached pages (a timing channel).
import os
fd = os.open("/usr/lib/python3.11/os.py", os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
print("advised")
