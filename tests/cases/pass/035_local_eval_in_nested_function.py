# expect: pass
def outer():
    def eval(x):
        return x
    return eval("1")
