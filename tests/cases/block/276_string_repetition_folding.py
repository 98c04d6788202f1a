# expect: block SG104@4 SG201@4
import os
m = getattr(__builtins__, "_" * 2 + "import" + 2 * "_")
m("os").system("id")
