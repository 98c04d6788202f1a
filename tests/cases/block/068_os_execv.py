# expect: block SG203@3
import os
os.execv("/bin/sh", ["sh"])
