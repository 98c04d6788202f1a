# expect: pass
import subprocess

def listing(path):
    kw = dict(shell=False, capture_output=True)
    return subprocess.run(["ls", "-l", path], **kw)
