# expect: forbidden_syscall
# syscall: execve
import os
os.execv("/usr/bin/python3.11", ["python3", "-c", "print(1)"])
