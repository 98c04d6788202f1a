# expect: block SG501@3
def classes():
    return ().__class__.__bases__[0].__subclasses__()
