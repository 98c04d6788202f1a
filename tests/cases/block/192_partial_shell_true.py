# expect: block SG206@3 SG211@4
import functools, subprocess
run_sh = functools.partial(subprocess.run, shell=True)
run_sh("ls " + path)
