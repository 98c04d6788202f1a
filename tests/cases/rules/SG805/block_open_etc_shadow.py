# expect: block SG805@3
def read():
    with open("/etc/shadow") as f:
        return f.read()
