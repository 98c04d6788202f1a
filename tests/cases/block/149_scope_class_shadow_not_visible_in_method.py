# expect: block SG101@5
class A:
    eval = print
    def m(self):
        return eval("1")
