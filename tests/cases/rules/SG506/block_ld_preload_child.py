# expect: block SG506@4
import os, subprocess

subprocess.run(["ls"], env=dict(os.environ, LD_PRELOAD="/tmp/hook.so"))
