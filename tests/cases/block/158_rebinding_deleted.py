# expect: block SG101@4
eval = print
del eval
eval("__import__('os').system('id')")
