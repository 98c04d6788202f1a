# expect: pass
import sqlite3

con = sqlite3.connect("app.db")
cur = con.cursor()
cur.execute("SELECT * FROM users WHERE name = ?", (name,))
cur.execute("CREATE TABLE t (" + "id INTEGER PRIMARY KEY" + ")")
