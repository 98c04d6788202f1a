# expect: block SG101@2 SG501@2
globals()["__builtins__"]["eval"]("1")
