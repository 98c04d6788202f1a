# expect: exception
# stdout-excludes: written
# check: hostfile_absent
import os
for p in ("/usr/lib/python3.11/sg_escape_evil.py", "/sg_evil", "/usr/bin/sg_evil"):
    try:
        open(p, "w").write("x")
        print("written", p)
    except OSError as e:
        print(p, e.errno)
os.mkdir("/sg_evil_dir")
