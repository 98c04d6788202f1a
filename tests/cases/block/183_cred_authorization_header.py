# expect: block SG601@2
headers = {"Authorization": "Bearer 8f2e1c0d9b7a6f5e"}
