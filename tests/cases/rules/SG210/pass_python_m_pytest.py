# expect: pass
import subprocess
import sys

def run_tests(path):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", path], check=False)
