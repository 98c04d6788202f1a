# expect: pass
import sqlite3

db = sqlite3.connect("cache.db")
