# expect: block SG102@2 SG102@3
[x] = [exec]
x("print(1)")
