# expect: block SG101@4
e = eval; f = e
g = f
g("__import__('os')")
