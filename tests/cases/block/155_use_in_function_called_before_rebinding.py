# expect: block SG101@3
def run(s):
    return eval(s)
run("__import__('os').system('id')")
eval = print
