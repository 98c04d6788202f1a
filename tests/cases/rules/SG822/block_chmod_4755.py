# expect: block SG822@4
import subprocess

subprocess.run(["chmod", "4755", "helper"], check=True)
