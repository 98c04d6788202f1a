# expect: block SG106@10
import doctest


def f():
    """>>> f()"""


f.__doc__ = ">>> __import__('o' + 's').system('id')"
doctest.testmod()
