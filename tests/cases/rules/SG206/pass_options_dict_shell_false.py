# expect: pass
import subprocess

OPTS = {"shell": False, "text": True, "check": True}
def listing(path):
    if OPTS.get("text"):
        return subprocess.run(["ls", "-l", path], **OPTS)
    return None
