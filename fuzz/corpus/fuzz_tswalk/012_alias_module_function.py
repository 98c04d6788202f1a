# expect: block SG201@4
import os
s = os.system
s("id")
