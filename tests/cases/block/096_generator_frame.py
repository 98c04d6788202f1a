# expect: block SG501@5
def gen():
    yield 1
g = gen()
print(g.gi_frame)
