# expect: block SG301@6
from multiprocessing.reduction import ForkingPickler


def restore(data):
    return ForkingPickler.loads(data)
