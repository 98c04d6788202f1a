# expect: block SG702@4
from urllib.request import urlopen
def f(u):
    return urlopen(u).read()
