# expect: pass
with open("/etc/hostname") as f:
    name = f.read().strip()
