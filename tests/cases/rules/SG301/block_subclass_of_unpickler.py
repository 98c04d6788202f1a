# expect: block SG301@5 SG301@9
import pickle


class Loader(pickle.Unpickler):
    pass


Loader(open("state.bin", "rb")).load()
