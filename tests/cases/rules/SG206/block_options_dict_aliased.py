# expect: block SG206@7
import subprocess

def run(cmd):
    opts = base = {"shell": False}
    base.update(shell=True)
    return subprocess.run(cmd, **opts)
