# expect: block SG106@4
import runpy

runpy.run_path("plugin.py")
