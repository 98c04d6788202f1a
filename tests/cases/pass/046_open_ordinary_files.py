# expect: pass
import json
with open("data.json") as f:
    rows = json.load(f)
with open("out.txt", "w") as g:
    g.write(str(len(rows)))
