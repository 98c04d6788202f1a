# expect: block SG206@3
from subprocess import *
run("ls", shell=True)
