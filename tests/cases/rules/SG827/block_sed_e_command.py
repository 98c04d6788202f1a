# expect: block SG827@5
import subprocess

def first_line(path):
    return subprocess.run(["sed", "-n", "1e id", path], capture_output=True, text=True)
