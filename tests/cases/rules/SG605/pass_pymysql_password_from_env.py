# expect: pass
import os
import pymysql
conn = pymysql.connect("db", "root", os.environ.get("DB_PASSWORD", ""), "app")
