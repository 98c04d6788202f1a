# expect: pass
from timeit import timeit
from functools import partial
def work():
    return sum(range(100))
print(timeit(work, number=100))
bench = partial(timeit, work, number=10)
print(bench())
