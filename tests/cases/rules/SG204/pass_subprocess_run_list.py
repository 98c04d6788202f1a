# expect: pass
import subprocess

subprocess.run(["/usr/bin/curl", "https://x"], check=True)
