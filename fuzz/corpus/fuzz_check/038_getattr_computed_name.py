# expect: block SG004@4
import os
name = input()
getattr(os, name)("id")
