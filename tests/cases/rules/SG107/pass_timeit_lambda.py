# expect: pass
import timeit
def f(x):
    return sorted(x)
print(timeit.timeit(lambda: f([3, 1, 2]), number=1000))
