# expect: pass
def table():
    return {k: v for k, v in globals().items() if k.startswith("X")}
