# expect: pass
import subprocess
import sys

def installed():
    return subprocess.run([sys.executable, "-m", "pip", "list", "--format=json"], capture_output=True, text=True)
