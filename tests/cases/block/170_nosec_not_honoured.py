# expect: block SG101@2
eval("1")  # nosec
