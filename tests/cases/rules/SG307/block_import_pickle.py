# expect: block SG307@3
# options: --fail-on low
import pickle

blob = pickle.dumps({"a": 1})
