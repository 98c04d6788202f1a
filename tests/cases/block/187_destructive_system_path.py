# expect: block SG806@4 SG806@5
import os
import shutil
shutil.rmtree("/")
os.remove("~/.bashrc")
shutil.rmtree("build")
