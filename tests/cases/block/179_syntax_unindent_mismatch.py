# expect: block SG001@4
def f():
        a = 1
    b = 2
