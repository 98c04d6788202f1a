# expect: block SG104@4
import importlib
name = input()
importlib.import_module(name)
