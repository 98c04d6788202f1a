# expect: block SG503@4 SG503@5 SG503@6 SG503@7
import builtins
import sys
builtins.open = lambda *a: None
__builtins__["__import__"] = print
sys.modules["json"] = None
sys.meta_path[0] = None
