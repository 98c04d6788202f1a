# expect: block SG601@2
DB_PASSWORD = "changeme123"
