# expect: block SG101@3
xs = ["1", "2"]
print(list(map(eval, xs)))
