# expect: pass
import tarfile

with tarfile.open("dist/pkg.tgz", "w:gz") as t:
    t.add("build/lib")
