# expect: block SG210@5
import subprocess, sys

def run(path):
    subprocess.run([sys.executable, "-m", "pytest", path], executable="/bin/sh")
