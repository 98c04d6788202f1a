# expect: block SG101@4
if False:
    eval = print
eval("__import__('os').system('id')")
