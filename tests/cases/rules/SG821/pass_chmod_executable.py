# expect: pass
import os, stat

os.chmod("run.sh", 0o755)
os.chmod("tool", stat.S_IRWXU | stat.S_IRGRP)
