# expect: block SG206@4
import subprocess
def run(cmd, use_shell):
    return subprocess.run(cmd, shell=use_shell)
