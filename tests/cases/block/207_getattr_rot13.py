# expect: block SG201@3
import codecs, os
getattr(os, codecs.decode("flfgrz", "rot13"))("id")
