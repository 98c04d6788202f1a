# expect: forbidden_syscall
# syscall: chroot
import os
os.mkdir("/tmp/c")
os.chroot("/tmp/c")
for _ in range(50):
    os.chdir("..")
os.chroot(".")
print(os.listdir("/"))
