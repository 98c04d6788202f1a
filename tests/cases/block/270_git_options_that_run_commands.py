# expect: block SG210@3 SG210@4 SG210@5
import subprocess
subprocess.run(["git", "-c", "core.fsmonitor=touch /tmp/pwned", "status"])
subprocess.run(["git", "-c", "alias.x=!id", "x"])
subprocess.run(["git", "clone", "--upload-pack=touch /tmp/pwned", "repo"])
