# expect: pass
import subprocess
subprocess.run(["git", "rev-parse", "HEAD"], check=True)
