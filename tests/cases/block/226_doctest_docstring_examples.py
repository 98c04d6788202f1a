# expect: block SG106@5
import doctest
def f():
    """>>> __import__('os').system('id')"""
doctest.run_docstring_examples(f, {})
