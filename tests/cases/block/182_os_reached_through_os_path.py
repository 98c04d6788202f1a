# expect: block SG201@3
import os.path as p
p.os.system("id")
