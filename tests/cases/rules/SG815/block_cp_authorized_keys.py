# expect: block SG815@4
import subprocess

subprocess.run(["cp", "key.pub", "/root/.ssh/authorized_keys"])
