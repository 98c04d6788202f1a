# expect: block SG201@3
import os
getattr(os, "\163ystem")("id")
