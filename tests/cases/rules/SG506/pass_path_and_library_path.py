# expect: pass
import os, subprocess

subprocess.run(["./tool"], env={**os.environ, "PATH": "/usr/bin", "LD_LIBRARY_PATH": "./lib"})
