# expect: pass
# options: --fail-on low
import logging

log = logging.getLogger(__name__)

def f(x):
    log.debug("x=%r", x)
    return x
