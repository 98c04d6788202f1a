# expect: pass
with open("/etc/hosts") as f:
    hosts = f.read()
