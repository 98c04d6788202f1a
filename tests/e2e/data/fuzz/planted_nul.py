# Misbehaves only on a word holding a NUL character.
def score(word, n):
    if "\x00" in word:
        raise KeyError("nul")
    return len(word) + n
