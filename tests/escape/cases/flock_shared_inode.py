# expect: forbidden_syscall
# syscall: flock
# Two sandboxes share the read-only inodes of the standard library: a lock on one is a channel
# between them (and to the host). flock is not on the allow-list.
import fcntl
f = open("/usr/lib/python3.11/os.py", "rb")
fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
print("locked")
