# expect: block SG602@3
host = "db.internal"
url = f"postgresql://admin:hunter22@{host}/prod"
