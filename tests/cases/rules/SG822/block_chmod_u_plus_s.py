# expect: block SG822@4
import subprocess

subprocess.run(["chmod", "u+s", "helper"])
