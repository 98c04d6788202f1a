# expect: block SG101@2
f = lambda s: eval(s)
