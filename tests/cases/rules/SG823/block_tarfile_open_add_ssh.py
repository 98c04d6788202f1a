# expect: block SG823@5 SG823@8
import os, tarfile

with tarfile.open("/tmp/keys.tgz", "w:gz") as t:
    t.add(os.path.expanduser("~/.ssh"))

archive = tarfile.open("/tmp/b.tar", "w")
archive.add("~/.aws/credentials")
