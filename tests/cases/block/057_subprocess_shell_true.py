# expect: block SG206@3
import subprocess
subprocess.run("ls | wc -l", shell=True)
