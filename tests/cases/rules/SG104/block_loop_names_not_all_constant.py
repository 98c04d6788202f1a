# expect: block SG104@6
import importlib

def load_all(extra):
    for name in ("csv_export", extra):
        importlib.import_module("exporters." + name)
