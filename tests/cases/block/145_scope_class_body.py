# expect: block SG101@3
class K:
    r = eval("1")
