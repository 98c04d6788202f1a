# expect: block SG104@4 SG201@4 SG106@5
import doctest
def f():
    """>>> __import__('os').system('id')"""
doctest.run_docstring_examples(f, {})
