# expect: block SG101@4
from builtins import eval as evaluate

result = evaluate("1 + 1")
