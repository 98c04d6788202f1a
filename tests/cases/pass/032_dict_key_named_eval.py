# expect: pass
ops = {"eval": 1, "exec": 2, "system": 3}
print(ops["eval"])
