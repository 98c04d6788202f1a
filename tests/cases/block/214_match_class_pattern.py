# expect: block SG201@5
import os
match os:
    case object(system=f):
        f("id")
