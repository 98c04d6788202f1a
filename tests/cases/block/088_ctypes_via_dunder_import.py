# expect: block SG104@2 SG401@2
c = __import__("ctypes")
