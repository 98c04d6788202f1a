# expect: memory_limit
# args: --memory 64
x = []
while True:
    x.append(bytearray(1 << 20))
