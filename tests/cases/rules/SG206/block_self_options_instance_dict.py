# expect: block SG206@8
import subprocess
class R:
    def __init__(self):
        self.kw = {"shell": False}
        self.__dict__.update(kw={"shell": True})
    def run(self, cmd):
        return subprocess.run(cmd, **self.kw)
