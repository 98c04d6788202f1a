# expect: block SG201@3
import shutil
shutil.os.system("id")
