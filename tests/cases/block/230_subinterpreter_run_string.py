# expect: block SG106@3
import _xxsubinterpreters as interp
interp.run_string(interp.create(), "import os")
