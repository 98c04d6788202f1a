# expect: pass
import subprocess
subprocess.run(["sed", "-i", "s/a e b/x/", "f"])
