# expect: block SG103@3
def build(source):
    return compile(source, "<input>", "exec")
