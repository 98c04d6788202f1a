# expect: block SG201@3
import os
getattr(os, "sYstem".translate(str.maketrans("Y", "y")))("id")
