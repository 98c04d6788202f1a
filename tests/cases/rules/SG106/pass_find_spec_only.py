# expect: pass
import importlib.util

spec = importlib.util.find_spec("json")
