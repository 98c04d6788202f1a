# expect: block SG101@2
__builtins__["eval"]("1")
