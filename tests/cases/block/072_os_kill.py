# expect: block SG209@3
import os
os.kill(1, 9)
