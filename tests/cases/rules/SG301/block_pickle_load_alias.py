# expect: block SG301@5
from pickle import load as restore

with open("state.bin", "rb") as f:
    state = restore(f)
