# expect: block SG601@2 SG602@2
headers = {"Authorization": "token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"}
