# expect: exception
# stdout-excludes: root:x:0:0
import os
os.symlink("/etc/passwd", "/tmp/l")
os.symlink("../../../../etc/passwd", "/tmp/l2")
for p in ("/tmp/l", "/tmp/l2"):
    try:
        print(open(p).read())
    except OSError as e:
        print(p, e)
os.symlink("/proc/1/root/etc/passwd", "/tmp/l3")
print(open("/tmp/l3").read())
