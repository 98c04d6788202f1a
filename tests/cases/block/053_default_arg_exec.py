# expect: block SG102@2 SG102@3
def run(src, runner=exec):
    runner(src)
