# expect: block SG206@6
import subprocess

OPTS = dict(shell=True, text=True)
def run(cmd):
    return subprocess.run(cmd, **OPTS)
