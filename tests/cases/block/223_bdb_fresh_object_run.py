# expect: block SG106@3
import bdb
bdb.Bdb().run("print(1)")
