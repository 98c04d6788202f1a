# expect: block SG821@4
import os

os.chmod("helper", 0o4755)
