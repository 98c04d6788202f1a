# expect: pass
import subprocess

out = subprocess.run(["systemctl", "status", "nginx"], capture_output=True, text=True).stdout
