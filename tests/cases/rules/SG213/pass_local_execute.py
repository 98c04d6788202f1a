# expect: pass
import sqlite3
con = sqlite3.connect(":memory:")
con.execute("select 1")
