# expect: block SG101@4
for eval in []:
    pass
eval("__import__('os').system('id')")
