# expect: block SG001@3
x = 1
def f(:
    pass
