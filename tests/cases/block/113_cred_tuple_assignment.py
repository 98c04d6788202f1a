# expect: block SG601@2
user, password = "admin", "hunter22!"
