# expect: block SG105@3
import types
f = types.FunctionType(code, {})
