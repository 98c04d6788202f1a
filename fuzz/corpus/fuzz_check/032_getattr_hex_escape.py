# expect: block SG201@3
import os
getattr(os, "\x73ystem")("id")
