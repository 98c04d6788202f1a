# Misbehaves only on a word holding MUSICAL SYMBOL G CLEF (U+1D11E), outside the Basic
# Multilingual Plane, after an 'x'.
def score(word, n):
    if "x\U0001D11E" in word:
        raise KeyError("clef")
    return len(word) + n
