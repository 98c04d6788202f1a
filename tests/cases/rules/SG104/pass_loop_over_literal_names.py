# expect: pass
import importlib

PLUGINS = ("csv_export", "json_export")

def load_all():
    loaded = {}
    for name in PLUGINS:
        loaded[name] = importlib.import_module(f"exporters.{name}")
    return loaded
