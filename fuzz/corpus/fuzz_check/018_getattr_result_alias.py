# expect: block SG201@4
import os
f = getattr(os, "system")
f("ls")
