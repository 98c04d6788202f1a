# expect: block SG214@3
from sh import ls
ls("-l")
