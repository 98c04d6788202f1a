# expect: block SG201@3
import os
getattr(os, chr(115) + "ystem")("id")
