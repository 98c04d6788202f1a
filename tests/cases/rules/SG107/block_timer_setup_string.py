# expect: block SG107@4
from timeit import Timer
code = "import os; os.system('id')"
t = Timer("pass", setup=code)
t.timeit(1)
