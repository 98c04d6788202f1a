# expect: block SG101@2
ys = [eval(x) for x in ["1", "2"]]
