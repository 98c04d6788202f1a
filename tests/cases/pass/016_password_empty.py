# expect: pass
password = ""
token = None
