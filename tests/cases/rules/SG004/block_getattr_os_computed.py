# expect: block SG004@5
import os

def call(name, arg):
    return getattr(os, name)(arg)
