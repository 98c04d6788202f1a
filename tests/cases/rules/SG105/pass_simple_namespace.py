# expect: pass
import types

ns = types.SimpleNamespace(a=1, b=2)
