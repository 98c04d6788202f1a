# expect: block SG102@3
def run(source):
    exec(source)
