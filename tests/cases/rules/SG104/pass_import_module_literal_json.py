# expect: pass
import importlib

json = importlib.import_module("json")
