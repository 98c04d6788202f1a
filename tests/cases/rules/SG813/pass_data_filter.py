# expect: pass
import tarfile

with tarfile.open("upload.tar.gz") as tar:
    tar.extractall("out", filter="data")
