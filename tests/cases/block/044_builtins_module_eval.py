# expect: block SG101@3
import builtins
builtins.eval("1")
