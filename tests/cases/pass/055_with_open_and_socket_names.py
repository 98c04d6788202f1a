# expect: pass
with open("data.txt") as fh:
    lines = fh.readlines()
