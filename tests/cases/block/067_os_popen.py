# expect: block SG202@3
import os
os.popen("ls").read()
