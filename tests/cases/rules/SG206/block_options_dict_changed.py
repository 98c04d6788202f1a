# expect: block SG206@8
import subprocess

OPTS = {"shell": False, "text": True}
def loosen():
    OPTS["shell"] = True
def run(cmd):
    return subprocess.run(cmd, **OPTS)
