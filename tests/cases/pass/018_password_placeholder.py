# expect: pass
password = "<password>"
api_key = "${API_KEY}"
