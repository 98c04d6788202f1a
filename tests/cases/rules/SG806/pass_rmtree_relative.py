# expect: pass
import shutil

shutil.rmtree("build")
