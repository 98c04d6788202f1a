# expect: block SG805@3 SG805@4 SG805@5
import pathlib
data = open("/etc/shadow").read()
key = pathlib.Path("/root/.ssh/id_rsa").read_text()
env = open(file="/proc/self/environ", mode="rb").read()
