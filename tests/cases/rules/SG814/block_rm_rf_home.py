# expect: block SG814@4
import os, subprocess

subprocess.run(["rm", "-rf", os.path.expanduser("~")])
