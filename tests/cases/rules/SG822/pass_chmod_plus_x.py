# expect: pass
import subprocess

subprocess.run(["chmod", "+x", "run.sh"], check=True)
subprocess.run(["chmod", "0755", "run.sh"], check=True)
