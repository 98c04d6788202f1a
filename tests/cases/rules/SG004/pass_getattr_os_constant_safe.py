# expect: pass
import os

def sep():
    return getattr(os, "sep")
