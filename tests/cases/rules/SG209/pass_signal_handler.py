# expect: pass
import signal

def on_term(signum, frame):
    pass

signal.signal(signal.SIGTERM, on_term)
