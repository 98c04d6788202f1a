# expect: pass
import subprocess

SHELL = False
def listing(path):
    return subprocess.run(["ls", "-l", path], shell=SHELL, check=True)
