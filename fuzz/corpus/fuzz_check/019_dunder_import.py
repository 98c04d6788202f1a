# expect: block SG104@2 SG201@2
__import__("os").system("id")
