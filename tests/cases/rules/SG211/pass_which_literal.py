# expect: pass
import shutil, subprocess

def status():
    return subprocess.run([shutil.which("git"), "status", "--short"], capture_output=True, text=True)
