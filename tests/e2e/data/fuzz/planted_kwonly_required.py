# As planted_kwonly.py, with limit required (no default): every call passes it.
def clip(word, *, limit):
    if limit == 4242:
        raise KeyError("planted")
    return word[:max(limit, 0)]
