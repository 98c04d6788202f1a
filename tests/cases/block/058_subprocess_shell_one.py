# expect: block SG206@3
import subprocess
subprocess.call("ls", shell=1)
