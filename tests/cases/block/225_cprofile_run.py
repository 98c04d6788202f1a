# expect: block SG106@3
import cProfile
cProfile.run("import os; os.system('id')")
