# expect: signal
import os, signal
body = b"k" + (5).to_bytes(4, "little") + b"ready"
os.write(6, len(body).to_bytes(4, "little") + body)
os.kill(os.getpid(), signal.SIGSEGV)
