# expect: forbidden_syscall
# syscall: clone
import os
while True:
    os.fork()
