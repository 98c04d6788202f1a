# expect: pass
import os

print(os.getcwd())
