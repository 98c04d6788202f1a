# expect: block SG106@3
import runpy
runpy.run_path("x.py")
