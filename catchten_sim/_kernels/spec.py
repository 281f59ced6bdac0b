"""The shape of a deal as one tuple: players, sets, set size, sides, scoring units.

``sp = (n, n_sets, set_size, n_sides, n_units)``  (``S_*`` indices), read from the tables
by :func:`spec_of` once per kernel call. Dealing and the play loop read the shape from it;
the rules themselves live in ``trick``/``scoring``/``deal`` (the switches of play and of
dealing are read there from ``Tables.play_rules`` / ``Tables.deal_rules``; the number of
scoring units is :func:`.scoring.n_units`'s).

Kept as one tuple so that a kernel can be specialised per configuration by building it
from constants instead (tried with a literal packed code, ``numba.literally``: the
compiler then unrolled the deal and policy loops and compile time went from ~10 s to
over 5 minutes; not done).
"""
from __future__ import annotations

from numba import njit

from .bits import JIT
from .layout import P_N, P_NSETS, P_NSIDES, P_SETSIZE
from .scoring import n_units

S_N, S_NSETS, S_SETSIZE, S_NSIDES, S_NUNITS = range(5)

@njit(inline="always", **JIT)
def spec_of(tab):
    """The shape tuple read from ``tab`` at run time."""
    p = tab.params
    return (p[P_N], p[P_NSETS], p[P_SETSIZE], p[P_NSIDES], n_units(p))
