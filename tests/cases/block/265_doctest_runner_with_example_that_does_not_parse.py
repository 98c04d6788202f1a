# expect: block SG106@10
import doctest


def g(x):
    """>>> g(2
    4
    """
    return x * 2
doctest.testmod()
