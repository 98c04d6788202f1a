# A bug reachable only through the keyword-only argument: a stage that calls clip(word)
# positionally never passes limit, and never sees it.
def clip(word, *, limit=10):
    if limit == 4242:
        raise KeyError("planted")
    return word[:max(limit, 0)]
