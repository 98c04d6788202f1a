# expect: exception
# A forged "exit 0" frame on the result pipe, then a real exit status of 7.
import os
body = b"k" + (4).to_bytes(4, "little") + b"exit" + b"c" + (1).to_bytes(4, "little") + b"0"
os.write(6, len(body).to_bytes(4, "little") + body)
os._exit(7)
