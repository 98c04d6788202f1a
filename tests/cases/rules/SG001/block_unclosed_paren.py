# expect: block SG001@2
def handler(request:
    return request
