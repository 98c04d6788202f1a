"""The human-eval pass@k estimator, the way its reference implementation computes it (shared by
the e2e tests that check `snipgate eval`'s pass@k), and the closed form it must agree with."""
from math import comb


def pass_at_k(n, c, k):
    """1 - C(n-c, k) / C(n, k), as a running product (human-eval's numerically stable form)."""
    if n - c < k:
        return 1.0
    p = 1.0
    for i in range(n - c + 1, n + 1):
        p *= 1.0 - k / i
    return 1.0 - p


def comb_pass_at_k(n, c, k):
    return 1.0 - comb(n - c, k) / comb(n, k)
