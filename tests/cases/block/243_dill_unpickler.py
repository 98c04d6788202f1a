# expect: block SG301@3
import dill
obj = dill.Unpickler(open("data.bin", "rb")).load()
