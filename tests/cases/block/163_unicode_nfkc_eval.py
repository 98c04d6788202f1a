# expect: block SG101@2
ｅval("__import__('os').system('id')")
