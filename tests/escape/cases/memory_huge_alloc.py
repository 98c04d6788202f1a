# expect: memory_limit
x = bytearray(1 << 40)
