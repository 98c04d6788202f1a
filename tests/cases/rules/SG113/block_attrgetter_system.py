# expect: block SG113@5 SG201@5
from operator import attrgetter
import os

attrgetter("system")(os)("id")
