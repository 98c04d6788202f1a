# expect: block SG804@6
# options: --fail-on low
import pdb

def f(x):
    pdb.set_trace()
    return x
