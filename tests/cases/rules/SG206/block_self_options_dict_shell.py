# expect: block SG206@7
import subprocess
class R:
    def __init__(self):
        self.kw = {"shell": True}
    def run(self, cmd):
        return subprocess.run(cmd, **self.kw)
