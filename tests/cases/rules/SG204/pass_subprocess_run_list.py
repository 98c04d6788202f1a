# expect: pass
import subprocess

subprocess.run(["/usr/bin/git", "status", "--short"], check=True)
