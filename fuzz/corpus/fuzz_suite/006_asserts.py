import math
from collections import Counter

def helper(xs):
    return sorted(xs)

assert mean([1, 2, 3]) == 2
assert math.isclose(mean([0.1, 0.2]), 0.15)
assert helper(mode([1, 1, 2])) == [1]
assert mode([]) is None, "empty input"
