def clip(word, *, limit):
    return word[:max(limit, 0)]
