# expect: block SG808@3
import shutil
shutil.copy("payload.sh", "/home/user/.profile")
