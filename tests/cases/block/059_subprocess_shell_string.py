# expect: block SG206@3
import subprocess
subprocess.check_output("ls", shell="yes")
