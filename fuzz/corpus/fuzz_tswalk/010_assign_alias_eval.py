# expect: block SG101@3
e = eval
e("1 + 1")
