# expect: block SG001@3
x = 1
y = (1,
z = 2
