# expect: block SG208@4
# options: --fail-on low
import subprocess
subprocess.run(["ls", "-l"])
