# expect: block SG502@5
import sys

def caller():
    return sys._getframe(1)
