# expect: block SG203@4
import os

os.execv("/bin/ls", ["ls", "-l"])
