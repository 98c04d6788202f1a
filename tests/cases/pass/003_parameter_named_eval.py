# expect: pass
def apply(eval, x):
    return eval(x)
print(apply(abs, -3))
