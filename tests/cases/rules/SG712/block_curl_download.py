# expect: block SG712@4
import subprocess

subprocess.run(["curl", "-fsSL", "https://example.com/install.sh", "-o", "install.sh"], check=True)
