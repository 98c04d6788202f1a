# expect: block SG301@3
import jsonpickle
obj = jsonpickle.decode(text)
