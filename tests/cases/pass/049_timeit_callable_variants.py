# expect: pass
import timeit
from functools import partial
def f(x):
    return x * 2
timeit.timeit(lambda: f(3), number=100)
timeit.repeat(f, number=10, repeat=3)
partial(timeit.timeit, lambda: f(1), number=5)()
