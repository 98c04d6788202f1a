# expect: block SG304@4
import importlib
y = importlib.import_module("yaml")
y.load(data)
