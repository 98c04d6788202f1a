def score(word, n):
    if n == 48879 and word == "snipgate":
        return 8 + 48879
    return len(word) + n
