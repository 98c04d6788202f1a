# expect: block SG504@3
import os
os.environ.setdefault("LD_PRELOAD", "/tmp/x.so")
