# expect: block SG506@4
import os, subprocess

subprocess.run(["make"], env={**os.environ, "BASH_ENV": "/tmp/x"})
