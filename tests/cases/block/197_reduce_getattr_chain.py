# expect: block SG201@4
from functools import reduce
import os
reduce(getattr, ["path", "os", "system"], os)("id")
