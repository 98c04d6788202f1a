# expect: block SG101@6
def setup():
    global run
    run = eval
setup()
run("__import__('os').system('id')")
