# expect: forbidden_syscall
# syscall: fcntl
# A POSIX record lock on a shared read-only inode: the same channel through fcntl(F_SETLK).
import fcntl
f = open("/usr/lib/python3.11/os.py", "rb")
fcntl.lockf(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
print("locked")
