# expect: block SG210@5
import subprocess

def unpack(archive, hook):
    subprocess.run(["tar", "-xf", archive, f"--to-command={hook}"], check=True)
