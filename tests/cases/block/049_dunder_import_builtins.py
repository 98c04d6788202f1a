# expect: block SG104@2 SG101@2
__import__("builtins").eval("1")
