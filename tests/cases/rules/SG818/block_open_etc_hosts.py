# expect: block SG818@2
with open("/etc/hosts", "a") as f:
    f.write("203.0.113.7 updates.example.com\n")
