# expect: pass
import subprocess
subprocess.call(["ls"], shell=None)
