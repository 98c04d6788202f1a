# expect: block SG206@9
import doctest
import subprocess as sp


def listing():
    """List the directory.

    >>> sp.call("ls -l", shell=True)  # run by doctest.testmod() below, with this module's names
    0
    """
    return sp.call(["ls", "-l"])


if __name__ == "__main__":
    doctest.testmod()
