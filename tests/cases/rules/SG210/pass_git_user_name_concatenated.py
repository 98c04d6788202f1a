# expect: pass
import subprocess

def commit(author):
    subprocess.run(["git", "-c", "user.name=" + author, "commit", "-m", "update"], check=True)
