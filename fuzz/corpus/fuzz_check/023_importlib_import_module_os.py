# expect: block SG104@3 SG201@3
import importlib
importlib.import_module("os").system("id")
