# expect: block SG201@3
import os
getattr(os, "\u0073yst\u0065m")("id")
