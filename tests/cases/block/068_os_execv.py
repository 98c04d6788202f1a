# expect: block SG203@3 SG210@3
import os
os.execv("/bin/sh", ["sh"])
