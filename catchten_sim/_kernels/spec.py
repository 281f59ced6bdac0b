"""The shape of a deal as one tuple: players, sets, sides and the play switches.

``sp = (n, n_sets, set_size, n_sides, per_set, no_trump_first_lead, exposed_trump,
must_trump, dead)``  (``S_*`` indices; flags 0/1), read from the tables by
:func:`spec_of` once per kernel call. Dealing and the play loop read the shape from it
(the rules themselves live in ``trick``/``scoring``/``deal``).

Kept as one tuple so that a kernel can be specialised per configuration by building it
from constants instead (tried with a literal packed code, ``numba.literally``: the
compiler then unrolled the deal and policy loops and compile time went from ~10 s to
over 5 minutes; not done).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import JIT
from .layout import P_DEAD, P_N, P_NSETS, P_NSIDES, P_PERSET, P_SETSIZE

S_N, S_NSETS, S_SETSIZE, S_NSIDES, S_PERSET, S_NTFL, S_EXPOSED, S_MUSTTRUMP, S_DEAD = range(9)

@njit(inline="always", **JIT)
def spec_of(tab):
    """The shape tuple read from ``tab`` at run time."""
    p = tab.params
    return (p[P_N], p[P_NSETS], p[P_SETSIZE], p[P_NSIDES], np.int64(p[P_PERSET] != 0),
            np.int64(tab.no_trump_first_lead), np.int64(tab.exposed_trump),
            np.int64(tab.must_trump), np.int64(p[P_DEAD] != 0))
