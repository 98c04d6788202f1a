# expect: block SG215@6 SG215@7
import sqlite3

con = sqlite3.connect("app.db")
cur = con.cursor()
cur.execute(f"SELECT * FROM users WHERE name = '{name}'")
con.executescript("DELETE FROM t WHERE id = %s" % uid)
