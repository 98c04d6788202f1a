# expect: block SG201@3
from os import system as run_cmd
run_cmd("whoami")
