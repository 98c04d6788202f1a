# expect: block SG104@3 SG402@3
import importlib
importlib.import_module("cffi")
