# expect: block SG210@6
import subprocess
import sys

def pip(action, pkg):
    return subprocess.run([sys.executable, "-m", "pip", action, pkg])
