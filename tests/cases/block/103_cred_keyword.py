# expect: block SG601@4
def connect(**kw):
    return kw
connect(user="admin", password="s3cr3t-pw")
