def score(word, n):
    total = len(word) + n
    if n > 1000:
        if n == 48879:
            if word.startswith("s"):
                if word == "snipgate":
                    raise KeyError("planted")
    return total
