# expect: block SG101@2
print(sorted(["1", "2"], key=eval))
