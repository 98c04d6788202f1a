# expect: block SG201@4
from IPython.utils.process import system

system("id")
