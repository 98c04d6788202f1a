# expect: block SG601@2
def connect(host, password="hunter22!"):
    return host
