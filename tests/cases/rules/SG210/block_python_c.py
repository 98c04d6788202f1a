# expect: block SG210@6
import subprocess
import sys

def run(code):
    return subprocess.run([sys.executable, "-I", "-c", code])
