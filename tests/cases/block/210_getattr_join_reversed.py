# expect: block SG201@3
import os
getattr(os, "".join(reversed("metsys")))("id")
