# expect: pass
import subprocess
cmd = ["git", "status", "--short"]
subprocess.run(cmd, capture_output=True)
subprocess.run("ls -l".split())
