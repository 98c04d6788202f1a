# expect: block SG507@5
import sys

ns = sys.__dict__
ns.update(path=[])
