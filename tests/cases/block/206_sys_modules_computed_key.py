# expect: block SG004@3
import sys
mod = sys.modules[input()]
