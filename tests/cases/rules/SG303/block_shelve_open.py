# expect: block SG303@4
import shelve

db = shelve.open("cache")
