# expect: block SG803@4
# options: --fail-on low
def f(x):
    breakpoint()
    return x
