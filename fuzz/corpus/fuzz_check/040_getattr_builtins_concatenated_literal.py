# expect: block SG101@2
getattr(__builtins__, "ev" "al")("1")
