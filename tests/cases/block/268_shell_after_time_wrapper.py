# expect: block SG210@3 SG210@4
import subprocess
subprocess.run(["time", "bash", "-c", "id"])
subprocess.run(["/usr/bin/time", "-v", "sh", "-c", "id"])
