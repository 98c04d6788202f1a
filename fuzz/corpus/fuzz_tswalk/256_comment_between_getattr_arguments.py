# expect: block SG201@3
import os
getattr(os, # a comment between the arguments shifts no position
        "system")("id")
