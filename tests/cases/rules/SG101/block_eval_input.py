# expect: block SG101@3
def parse(text):
    return eval(text)
