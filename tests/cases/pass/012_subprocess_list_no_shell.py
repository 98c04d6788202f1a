# expect: pass
import subprocess
out = subprocess.run(["git", "status", "--short"], capture_output=True, text=True, check=True)
print(out.stdout)
