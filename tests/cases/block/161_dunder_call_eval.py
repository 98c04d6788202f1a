# expect: block SG101@2
eval.__call__("__import__('os').system('id')")
