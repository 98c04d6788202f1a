# expect: block SG206@4
import subprocess
ops = {"run": subprocess.run, "other": print}
ops["run"]("id", shell=True)
