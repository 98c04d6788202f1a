# expect: pass
import subprocess

out = subprocess.run(["uname", "-a"], capture_output=True, text=True).stdout
