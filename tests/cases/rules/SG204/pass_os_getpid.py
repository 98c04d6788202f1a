# expect: pass
import os

print(os.getpid())
