# expect: pass
def read():
    with open("config/settings.json") as f:
        return f.read()
