# expect: pass
from ast import literal_eval as eval
print(eval("{'a': 1}"))
