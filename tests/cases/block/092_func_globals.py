# expect: block SG501@4
def f():
    pass
g = f.__globals__
