# expect: block SG601@3
settings = {}
settings["password"] = "hunter22!"
