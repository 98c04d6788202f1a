# expect: pass
def build(a, b):
    params = locals()
    params["c"] = a + b
    return params
