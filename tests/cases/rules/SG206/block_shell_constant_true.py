# expect: block SG206@6
import subprocess

SHELL = True
def run(cmd):
    return subprocess.run(cmd, shell=SHELL)
