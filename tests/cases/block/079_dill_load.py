# expect: block SG301@4
import dill
with open("m.pkl", "rb") as fh:
    model = dill.load(fh)
