# expect: block SG201@4
import os
n = "system"
getattr(os, n)("id")
