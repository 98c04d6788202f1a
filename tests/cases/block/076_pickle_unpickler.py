# expect: block SG301@3
import pickle, io
pickle.Unpickler(io.BytesIO(blob)).load()
