# expect: block SG601@2
DB_PASSWORD = ("chang" + "eme123")
