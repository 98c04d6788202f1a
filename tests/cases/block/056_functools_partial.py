# expect: block SG201@3
import functools, os
functools.partial(os.system, "id")()
