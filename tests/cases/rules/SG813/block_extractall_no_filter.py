# expect: block SG813@5
import tarfile

with tarfile.open("upload.tar.gz") as tar:
    tar.extractall("out")
