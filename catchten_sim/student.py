"""Student's t critical values in pure Python: no scipy on the way to an answer.

A run stopped before its first look (a double-dummy advice at its ``--time`` limit after
a few deals, a match interrupted early) reports intervals with Student's t, computed
after the limit has run out; importing ``scipy.stats`` for it took 1 to 2.7 s of a busy
machine there (``advise --time 3`` took 4.24 s in all), ``scipy.special`` 0.2 to 0.3 s.
With a whole number of degrees of freedom (every caller's: samples minus one) the t
distribution's two-sided tail is a finite sum (Abramowitz and Stegun 26.7.3 and
26.7.4), so the critical value is found by Newton's method on it, to within 1e-12 of
``scipy.stats.t.ppf`` (tests/test_student.py holds it to 1e-10 against scipy).
"""
from __future__ import annotations

import math
from statistics import NormalDist

#: above this many degrees of freedom the sum is long: the expansion in 1 / df of
#: Abramowitz and Stegun 26.7.5 is used instead (its error there is below 1e-11)
SERIES_MAX = 1000


def two_sided_tail(t: float, df: int) -> float:
    """``P(|T| > t)`` for ``T`` Student's t with ``df`` (a whole number, 1 or more)
    degrees of freedom and ``t >= 0``: one minus A&S 26.7.3 (``df`` odd) or 26.7.4
    (even), in ``theta = atan(t / sqrt(df))``.

    >>> round(two_sided_tail(12.7062047361747, 1), 9)
    0.05
    """
    theta = math.atan(t / math.sqrt(df))
    s, c = math.sin(theta), math.cos(theta)
    c2 = c * c
    term = total = 1.0
    if df % 2 == 0:
        for k in range(1, df // 2):
            term *= (2 * k - 1) / (2 * k) * c2
            total += term
        return 1.0 - s * total
    if df == 1:
        return 1.0 - 2.0 * theta / math.pi
    for k in range(1, (df - 1) // 2):
        term *= (2 * k) / (2 * k + 1) * c2
        total += term
    return 1.0 - 2.0 / math.pi * (theta + s * c * total)


def _density(t: float, df: int) -> float:
    """The t density at ``t`` (one side)."""
    log_c = (math.lgamma((df + 1) / 2) - math.lgamma(df / 2)
             - 0.5 * math.log(df * math.pi))
    return math.exp(log_c - (df + 1) / 2 * math.log1p(t * t / df))


def _expansion(z: float, df: int) -> float:
    """A&S 26.7.5: the t quantile from the normal one ``z``, in powers of ``1 / df``."""
    g = ((z ** 3 + z) / 4,
         (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
         (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
         (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160)
    return z + sum(gk / df ** (k + 1) for k, gk in enumerate(g))


def t_critical(alpha: float, df: int) -> float:
    """The ``t`` with ``P(|T| > t) = alpha``, ``T`` Student's t with ``df`` (a whole
    number, 1 or more) degrees of freedom (12.71 for 0.05 and 1), ``0 < alpha < 1``.

    >>> round(t_critical(0.05, 11), 4)
    2.201
    """
    z = NormalDist().inv_cdf(1.0 - alpha / 2.0)
    if df > SERIES_MAX:
        return _expansion(z, df)
    # the root is bracketed: t's tails are heavier than the normal's, so t >= z
    lo, hi = z, max(2.0 * z, 1.0)
    while two_sided_tail(hi, df) >= alpha:
        lo, hi = hi, 2.0 * hi
    t = min(max(_expansion(z, df), lo), hi)
    for _ in range(200):
        f = two_sided_tail(t, df) - alpha          # decreasing in t
        if f > 0:
            lo = t
        else:
            hi = t
        nxt = t + f / (2.0 * _density(t, df))
        if not lo < nxt < hi:                     # Newton left the bracket: halve it
            nxt = 0.5 * (lo + hi)
        if abs(nxt - t) <= 1e-15 * nxt:
            return nxt
        t = nxt
    return t
