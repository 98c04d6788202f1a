# expect: block SG206@3
import subprocess
[f("id", shell=True) for f in [subprocess.check_output]]
