# expect: block SG106@3
import importlib.util
spec = importlib.util.spec_from_file_location("m", "/tmp/m.py")
