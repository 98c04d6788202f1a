# expect: block SG805@6
import glob
import os

def stores():
    return glob.glob(os.path.expanduser("~/.config/google-chrome/*/Login Data"))
