# expect: block SG101@3
from six.moves import builtins
builtins.eval("1")
