# expect: block SG113@4 SG201@4
import os
import operator
operator.attrgetter("sys" + "tem")(os)("id")
