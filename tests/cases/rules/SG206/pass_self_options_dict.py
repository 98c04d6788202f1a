# expect: pass
import subprocess
class R:
    def __init__(self):
        self.kw = {"text": True, "check": True}
    def run(self, cmd):
        return subprocess.run(["ls", cmd], **self.kw)
