# expect: pass
# callables in containers without shell=True, and lists of harmless functions
import math
import subprocess
launchers = [subprocess.run]
launchers[0](["ls", "-l"], check=True)
for fn in [math.sin, math.cos, math.tan, math.exp, math.log, math.sqrt, math.floor, math.ceil]:
    print(fn(1.0))
table = {"a": abs, "b": round}
print(table["a"](-1))
