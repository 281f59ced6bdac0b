"""Checks of the whole numbers every entry point takes: counts, seeds and thread limits.

Layer 0 (imports nothing of the package but :mod:`catchten_sim.errors`): a bad value is
one :class:`~catchten_sim.errors.CatchTenError` naming the field and the problem.
"""
from __future__ import annotations

import os

import numpy as np

from .errors import CatchTenError

__all__ = ["MAX_DEALS", "MAX_SEED", "MAX_THREADS", "check_count", "check_seed",
           "check_threads", "max_threads"]

MAX_SEED = 2 ** 64 - 1
MAX_DEALS = 10 ** 12       # ~ a week at 2 M deals/s; deal numbers stay far below 2**63
MAX_THREADS = 1024


def check_count(name: str, value: object, lo: int, hi: int | None = None) -> int:
    """``value`` as an int from ``lo`` to ``hi`` (no upper bound when None).

    Raises
    ------
    CatchTenError
        ``not a whole number`` (a bool counts as not one); ``out of range``.
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise CatchTenError(name, "not a whole number", f"{name}={value!r}")
    v = int(value)
    if v < lo or (hi is not None and v > hi):
        rng = f"{lo} or more" if hi is None else f"{lo} to {hi}"
        raise CatchTenError(name, "out of range", f"{name}={v} (allowed: {rng})")
    return v


def check_seed(value: object, name: str = "seed") -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED` (as :func:`check_count`)."""
    return check_count(name, value, 0, MAX_SEED)


def check_threads(value: object, name: str = "threads") -> int:
    """A thread count: 1 to :data:`MAX_THREADS` (as :func:`check_count`)."""
    return check_count(name, value, 1, MAX_THREADS)


def max_threads() -> int:
    """Threads available to this process (CPU affinity aware)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
