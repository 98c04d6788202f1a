# expect: block SG201@3 SG201@4 SG201@5
import os
getattr(os, "xxsystemxx"[2:8])("a")
getattr(os, "sys%s" % "tem")("b")
getattr(os, "{}tem".format("sys"))("c")
