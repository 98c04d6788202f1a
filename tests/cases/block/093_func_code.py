# expect: block SG501@4
def f():
    pass
raw = f.__code__.co_code
