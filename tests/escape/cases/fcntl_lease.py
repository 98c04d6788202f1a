# expect: forbidden_syscall
# syscall: fcntl
# A read lease on a bound host file: the holder learns when the host opens it for writing.
import fcntl
f = open("/usr/lib/python3.11/os.py", "rb")
fcntl.fcntl(f, fcntl.F_SETLEASE, fcntl.F_RDLCK)
print("leased")
