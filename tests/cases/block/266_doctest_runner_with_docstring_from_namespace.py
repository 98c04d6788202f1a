# expect: block SG106@4
import doctest
C = type("C", (), {"__d" + "oc__": ">>> __import__('os').system('id')"})
doctest.testmod()
