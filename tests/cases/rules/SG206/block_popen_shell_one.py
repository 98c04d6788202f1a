# expect: block SG206@4
import subprocess

p = subprocess.Popen("ls | wc -l", shell=1)
