# expect: pass
# options: --fail-on low
import logging

def f(x):
    logging.debug("x=%r", x)
    return x
