# expect: block SG201@4
import doctest
def f():
    ">>> import os\n>>> os.system('id')"
doctest.testmod()
