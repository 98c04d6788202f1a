# expect: block SG211@4
import subprocess
cmd = input().split()
subprocess.check_output([*cmd])
