# expect: block SG101@5
def outer():
    e = eval
    def inner():
        return e("1")
    return inner
