# expect: block SG206@3
import subprocess
subprocess.Popen("ls", -1, None, None, None, None, None, True, True)
