# expect: block SG202@5
import os

def ls(d):
    return os.popen("ls " + d).read()
