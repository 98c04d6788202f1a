# expect: block SG501@2
print(type.__subclasses__(object))
