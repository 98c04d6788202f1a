# expect: block SG210@3
import subprocess
subprocess.run(["timeout", "5", "bash", "-c", script])
