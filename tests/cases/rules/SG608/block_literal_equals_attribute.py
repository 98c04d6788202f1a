# expect: block SG608@3
def check(request):
    return "sk-test-4f8a9b" != request.API_KEY
