# expect: block SG303@3
import shelve
db = shelve.open("cache.db")
