# expect: block SG823@4
import os, shutil

shutil.make_archive("/tmp/backup", "zip", os.path.expanduser("~/.ssh"))
