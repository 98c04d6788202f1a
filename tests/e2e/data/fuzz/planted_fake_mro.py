# An undeclared exception dressed up as a ValueError by its metaclass: its __mro__, __name__ and
# __qualname__ attributes say ValueError, but the class is not one (`except ValueError` does not
# catch it). fz/declares declares ValueError and LookupError: raising Sneaky is a finding.
class Meta(type):
    def __getattribute__(cls, name):
        if name == "__mro__":
            return (ValueError, Exception, BaseException, object)
        if name in ("__name__", "__qualname__"):
            return "ValueError"
        if name == "__module__":
            return "builtins"
        return type.__getattribute__(cls, name)


class Sneaky(Exception, metaclass=Meta):
    pass


def score(word, n):
    if n < 0:
        raise ValueError("negative")
    if word == "k":
        raise KeyError(word)
    if n > 1000:
        raise Sneaky("not a ValueError")
    return len(word) + n
