# expect: block SG501@2
subs = getattr(object, "__subclasses__")()
