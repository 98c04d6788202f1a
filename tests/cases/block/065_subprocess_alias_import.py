# expect: block SG206@3
from subprocess import check_output as co
co("ls", shell=True)
