# expect: block SG104@3
def load(module_name):
    return __import__(module_name)
