# expect: block SG301@3
from pickle import loads as decode
decode(blob)
