# expect: block SG506@6
import os
import subprocess

env = dict(os.environ, BASH_ENV="/tmp/rc")
subprocess.run(["make"], env=env)
