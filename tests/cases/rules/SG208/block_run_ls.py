# expect: block SG208@5
# options: --fail-on low
import subprocess

subprocess.run(["ls", "-l"])
