# expect: block SG001@4
x = 1
if x:
if x:
    pass
