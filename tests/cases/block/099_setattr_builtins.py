# expect: block SG503@3
import builtins
setattr(builtins, "open", None)
