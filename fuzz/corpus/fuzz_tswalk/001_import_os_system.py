# expect: block SG201@3
import os
os.system("ls -la")
