# expect: exception
import os
os.write(6, b"\xff\xff\xff\x7f" + b"junk" * 100)
