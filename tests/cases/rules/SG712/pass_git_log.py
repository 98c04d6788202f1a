# expect: pass
import subprocess

subprocess.run(["git", "log", "-1", "--format=%H"], check=True)
