# expect: block SG112@5
import inspect as ins
import subprocess as sp

for name, fn in ins.getmembers(sp, ins.isfunction):
    if name == "getoutput":
        print(fn("id"))
