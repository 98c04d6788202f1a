# expect: exception
# args: --call f()
import os
def f():
    v = b"42"
    body = b"k" + (2).to_bytes(4, "little") + b"ok" + b"r" + len(v).to_bytes(4, "little") + v
    os.write(6, len(body).to_bytes(4, "little") + body)
    raise ValueError("the real result")
