# expect: block SG601@2
password = "hunter22!"
