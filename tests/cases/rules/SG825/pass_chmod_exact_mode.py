# expect: pass
import subprocess

def install(tool):
    subprocess.run(["chmod", "755", "/usr/local/bin/" + tool], check=True)
    subprocess.run(["chmod", "-R", "u+w", "build"], check=True)
