# expect: pass
import subprocess

def rename(path):
    subprocess.run(["sed", "-i", "s/e/E/g; s/old name/new name/", path], check=True)
    subprocess.run(["sed", "-n", "/error/p", path], check=True)
