# expect: block SG101@2 SG101@3
a, b = len, eval
b("1")
