# expect: pass
import shutil

shutil.make_archive("dist/app", "gztar", "build")
shutil.copytree("src", "backup/src")
