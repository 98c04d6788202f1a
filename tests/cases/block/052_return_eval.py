# expect: block SG101@3
def pick():
    return eval
pick()("1")
