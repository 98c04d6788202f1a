# expect: pass
"""Binary search.

>>> binary_search([1, 3, 5], 3)
1
"""


def binary_search(items, target):
    """Return the index of target in sorted items, or -1.

    >>> binary_search([1, 2, 3], 4)
    -1
    >>> for n in range(2):
    ...     print(binary_search([0, 1], n))
    0
    1
    """
    lo, hi = 0, len(items) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if items[mid] == target:
            return mid
        if items[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


if __name__ == "__main__":
    import doctest

    doctest.testmod(verbose=True)
