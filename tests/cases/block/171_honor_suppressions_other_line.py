# expect: block SG102@4
# options: --honor-suppressions
eval("1")  # nosec
exec("x = 1")
