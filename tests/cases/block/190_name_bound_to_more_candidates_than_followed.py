# expect: block SG002@14
# nine os functions, then os.system: a dropped candidate must not let the call through
import os
f = os.getcwd
f = os.getpid
f = os.getuid
f = os.getgid
f = os.getppid
f = os.getlogin
f = os.cpu_count
f = os.urandom
f = os.getenv
f = os.system
f("id")
