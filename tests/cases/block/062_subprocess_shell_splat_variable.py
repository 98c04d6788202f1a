# expect: block SG206@4
import subprocess
kw = {"shell": True}
subprocess.run("ls; id", **kw)
