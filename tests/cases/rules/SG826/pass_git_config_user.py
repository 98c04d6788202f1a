# expect: pass
import subprocess

def setup(repo, name):
    subprocess.run(["git", "-C", repo, "config", "user.name", name], check=True)
    subprocess.run(["git", "-C", repo, "config", "pull.rebase", "true"], check=True)
