# expect: block SG207@3
import subprocess
print(subprocess.getoutput("ls"))
