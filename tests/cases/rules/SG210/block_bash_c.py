# expect: block SG210@5
import subprocess

def run(script):
    subprocess.run(["bash", "-c", script])
