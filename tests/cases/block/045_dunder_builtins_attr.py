# expect: block SG102@2
__builtins__.exec("print(1)")
