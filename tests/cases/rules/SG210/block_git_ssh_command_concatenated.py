# expect: block SG210@5
import subprocess

def fetch(ssh_cmd):
    subprocess.run(["git", "-c", "core.sshCommand=" + ssh_cmd, "fetch", "origin"], check=True)
