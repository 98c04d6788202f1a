# expect: block SG824@4
import os

found = [os.path.join(d, f) for d, _, fs in os.walk(os.path.expanduser("~")) for f in fs if f.endswith(".key")]
