# expect: block SG201@6
import os
try:
    pass
finally:
    os.system("ls")
