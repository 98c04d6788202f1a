# expect: block SG301@3
import pickle
obj = pickle.loads(blob)
