# expect: block SG101@3 SG101@4
def pick():
    return eval
pick()("1")
