# expect: block SG207@4
import subprocess

out = subprocess.getoutput("uname -a")
