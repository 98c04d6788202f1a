# expect: pass
def kind(value):
    return type(value).__name__
