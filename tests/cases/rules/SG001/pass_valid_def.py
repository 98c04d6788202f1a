# expect: pass
def handler(request):
    return request
