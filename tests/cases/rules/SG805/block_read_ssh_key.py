# expect: block SG805@4
import os

key = open(os.path.expanduser("~/.ssh/id_rsa")).read()
