# expect: pass
import os
with open(os.path.expanduser("~/.bashrc")) as f:
    print(len(f.read()))
