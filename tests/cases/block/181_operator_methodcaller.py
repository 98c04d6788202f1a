# expect: block SG113@4 SG201@4
import operator
import os as o
operator.methodcaller("system", "id")(o)
