# expect: exception
import os
body = b"k" + (5).to_bytes(4, "little") + b"ready"
os.write(6, len(body).to_bytes(4, "little") + body)
raise SystemExit(3)
