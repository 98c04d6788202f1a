# Every exception raised here is a declared one (fz/declares: ValueError, LookupError) by its MRO,
# none by its name: the fuzz stage, matching as the golden stage does, has no finding.
class BadInput(ValueError):
    """A user subclass of a declared class."""


def score(word, n):
    if n < 0:
        raise BadInput("negative")
    if n > 1000:
        return len(b"\xff".decode("utf-8"))  # UnicodeDecodeError: a ValueError
    if word == "k":
        return {}[word]  # KeyError: a LookupError
    if len(word) > 3:
        return ord(word[40])  # IndexError (a LookupError) for words of 4 to 40 characters
    return len(word) + n
