# expect: block SG201@4
from os import system

system("id")
