# expect: block SG104@3 SG206@3
import importlib
importlib.__import__("subprocess").call("ls", shell=True)
