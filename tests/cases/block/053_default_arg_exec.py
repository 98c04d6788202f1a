# expect: block SG102@2
def run(src, runner=exec):
    runner(src)
