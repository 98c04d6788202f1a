# expect: block SG102@2
print((e := exec)("x = 1"))
