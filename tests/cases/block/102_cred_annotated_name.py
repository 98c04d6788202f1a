# expect: block SG601@2
password: str = "correct-horse"
