# expect: block SG210@4
import subprocess
import sys
subprocess.run([sys.executable, "-c", code])
