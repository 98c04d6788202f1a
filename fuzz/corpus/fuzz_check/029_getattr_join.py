# expect: block SG201@3
import os
getattr(os, "".join(["sy", "st", "em"]))("id")
