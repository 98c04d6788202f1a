# expect: block SG503@5
import builtins

def patch(f):
    setattr(builtins, "open", f)
