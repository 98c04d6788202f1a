# expect: block SG102@4
# options: --honor-suppressions
eval("1")  # nosec SG101
exec("x = 1")
