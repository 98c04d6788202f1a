# expect: block SG504@3
import os
os.environ["PYTHONBREAKPOINT"] = "os.system"
breakpoint("id")
