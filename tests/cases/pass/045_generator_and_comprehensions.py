# expect: pass
def squares(n):
    for i in range(n):
        yield i * i
print(sum(squares(10)), {k: v for k, v in zip("ab", range(2))})
