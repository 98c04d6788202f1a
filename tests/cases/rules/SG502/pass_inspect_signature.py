# expect: pass
import inspect

def arity(f):
    return len(inspect.signature(f).parameters)
