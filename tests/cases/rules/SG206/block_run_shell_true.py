# expect: block SG206@5
import subprocess

def grep(p):
    subprocess.run("grep " + p + " log.txt", shell=True)
