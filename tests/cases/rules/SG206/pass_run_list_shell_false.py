# expect: pass
import subprocess

def grep(p):
    subprocess.run(["grep", p, "log.txt"], shell=False)
