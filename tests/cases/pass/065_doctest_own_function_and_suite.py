# expect: pass
import doctest
import unittest


def double(x):
    """
    >>> double(2)
    4
    """
    return x * 2


if isinstance(double, type):
    pass
doctest.run_docstring_examples(double, globals())
suite = unittest.TestSuite([doctest.DocTestSuite()])
