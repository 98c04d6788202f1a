# expect: forbidden_syscall
# syscall: fcntl
# F_NOTIFY on a bound host directory would report the host's accesses to it.
import fcntl, os
fd = os.open("/usr/lib/python3.11", os.O_RDONLY)
fcntl.fcntl(fd, fcntl.F_NOTIFY, fcntl.DN_ACCESS | fcntl.DN_MULTISHOT)
print("watching")
