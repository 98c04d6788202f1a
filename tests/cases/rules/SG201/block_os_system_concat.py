# expect: block SG201@5
import os

def thumb(name):
    os.system("convert " + name + " out.png")
