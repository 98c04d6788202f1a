# expect: block SG403@4
import numpy.ctypeslib

lib = numpy.ctypeslib.load_library("libhelper", ".")
