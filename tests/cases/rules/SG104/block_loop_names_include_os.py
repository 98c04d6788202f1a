# expect: block SG104@5
import importlib

def load_all():
    return [importlib.import_module(m) for m in ["math", "os"]]
