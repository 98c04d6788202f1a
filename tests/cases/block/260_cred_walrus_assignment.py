# expect: block SG601@2
if (DB_PASSWORD := "changeme123"):
    connect(DB_PASSWORD)
