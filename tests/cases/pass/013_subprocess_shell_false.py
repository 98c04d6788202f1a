# expect: pass
import subprocess
subprocess.run(["ls", "-l"], shell=False)
