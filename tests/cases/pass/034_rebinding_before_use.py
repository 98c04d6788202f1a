# expect: pass
eval = print
eval("hello")
