# expect: block SG201@3
from os import *
system("id")
