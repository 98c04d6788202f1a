# expect: pass
import subprocess

subprocess.run(["/bin/ls", "-l"], check=True)
