# expect: block SG104@2 SG201@3
m = __import__("o" + "s")
m.system("id")
