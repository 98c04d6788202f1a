# expect: block SG105@5
import types

def make(code):
    return types.FunctionType(code, {})
