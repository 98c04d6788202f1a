# expect: block SG301@3
import jsonpickle.unpickler
obj = jsonpickle.unpickler.decode(blob)
