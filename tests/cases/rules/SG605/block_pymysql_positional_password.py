# expect: block SG605@3
import pymysql as db
conn = db.connect("db.internal", "root", "Sup3rSecret!", "app")
