# expect: pass
import os

notes = open(os.path.expanduser("~/notes/todo.txt")).read()
