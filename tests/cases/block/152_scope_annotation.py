# expect: block SG101@2
def f(x: eval("int")):
    pass
