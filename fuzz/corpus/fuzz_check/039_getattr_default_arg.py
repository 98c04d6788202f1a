# expect: block SG201@3
import os
getattr(os, "system", None)("ls")
