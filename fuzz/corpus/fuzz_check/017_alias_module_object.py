# expect: block SG201@4
import os
o = os
o.system("ls")
