# expect: block SG101@2
x = f"{eval('1')}"
