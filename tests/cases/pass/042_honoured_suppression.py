# expect: pass
# options: --honor-suppressions
eval("1")  # nosec SG101
