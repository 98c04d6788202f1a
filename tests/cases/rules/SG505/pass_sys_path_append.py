# expect: pass
import sys

sys.path.append("vendor")
found = [type(f).__name__ for f in sys.meta_path]
