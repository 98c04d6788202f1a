# expect: pass
import shlex
print(shlex.quote("a b"))
