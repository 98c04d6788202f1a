# expect: block SG206@4
import subprocess
for launch in (subprocess.Popen, subprocess.call):
    launch("id", shell=True)
