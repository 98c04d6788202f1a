# expect: pass
import subprocess

subprocess.run(["rm", "-rf", "build", "dist"], check=True)
