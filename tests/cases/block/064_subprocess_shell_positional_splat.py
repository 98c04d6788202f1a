# expect: block SG206@4
import subprocess
args = ["ls; id", -1, None, None, None, None, None, True, True]
subprocess.Popen(*args)
