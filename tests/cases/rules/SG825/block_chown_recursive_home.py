# expect: block SG825@4
import os, subprocess

subprocess.run(["chown", "-Rf", "nobody", os.path.expanduser("~")])
