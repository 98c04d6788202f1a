# expect: block SG301@5
import pickle

def load(data):
    return pickle.loads(data)
