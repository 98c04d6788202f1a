# expect: block SG101@4
def f(x):
    if x:
        return eval(x)
