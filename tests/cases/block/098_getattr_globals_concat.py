# expect: block SG501@4
def f():
    pass
g = getattr(f, "__glo" + "bals__")
