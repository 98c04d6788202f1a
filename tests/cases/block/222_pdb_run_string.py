# expect: block SG106@3
import pdb
pdb.run("__import__('os').system('id')")
