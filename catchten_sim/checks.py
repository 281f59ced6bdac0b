"""Checks of the whole numbers every entry point takes: counts, seeds and thread limits.

Layer 0 (imports nothing of the package but :mod:`catchten_sim.errors`): a bad value is
one :class:`~catchten_sim.errors.CatchTenError` naming the field and the problem.
"""
from __future__ import annotations

import math
import os
from typing import TypeGuard

import numpy as np

from .errors import CatchTenError, described

__all__ = ["MAX_DEALS", "MAX_NODES", "MAX_SEED", "MAX_THREADS", "check_count", "check_number",
           "check_seed", "check_threads", "is_number", "is_whole", "max_threads"]

MAX_SEED = 2 ** 64 - 1
MAX_DEALS = 10 ** 12       # ~ a week at 2 M deals/s; deal numbers stay far below 2**63
MAX_THREADS = 1024
MAX_NODES = 10 ** 15       # a solve's node budget (counted in int64; none comes near it)


def check_count(name: str, value: object, lo: int, hi: int | None = None) -> int:
    """``value`` as an int from ``lo`` to ``hi`` (no upper bound when None).

    Raises
    ------
    CatchTenError
        ``not a whole number`` (a bool counts as not one: ``got a boolean (true)``, the
        value in plain words, :func:`~catchten_sim.errors.described`); ``out of range``.
    """
    if not is_whole(value):
        raise CatchTenError(name, "not a whole number", f"got {described(value)}")
    v = int(value)
    if v < lo or (hi is not None and v > hi):
        rng = f"{lo} or more" if hi is None else f"{lo} to {hi}"
        raise CatchTenError(name, "out of range", f"{name}={v}; allowed: {rng}")
    return v


def is_whole(value: object) -> TypeGuard[int | np.integer]:
    """True for a whole number as JSON or Python gives one (an int, not a bool or float:
    ``0.0`` is refused as a seat or count, the files and flags write ``0``)."""
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def is_number(value: object) -> bool:
    """True for an int or float (not a bool, not a string such as ``"5"``)."""
    return not isinstance(value, bool) and isinstance(value, (int, float, np.integer,
                                                               np.floating))


def check_number(name: str, value: object, lo: float, hi: float = math.inf, *,
                 lo_open: bool = True, what: str = "") -> float:
    """``value`` as a float with ``lo < value <= hi`` (``lo <= value`` when not
    ``lo_open``); the type is checked before the range, so the why names the real problem.
    ``what`` (e.g. ``"seconds"``) is said with the allowed range.

    Raises
    ------
    CatchTenError
        ``not a number`` (a bool or a string such as ``"20"`` counts as not one); ``not a
        finite number`` (NaN, the infinities); ``out of range``.
    """
    unit = f" {what}" if what else ""
    rng = (f"more than {lo:g}" if lo_open else f"{lo:g} or more") + \
        ("" if hi == math.inf else f", at most {hi:g}")
    if not is_number(value):
        raise CatchTenError(name, "not a number", f"got {described(value)}; {rng}{unit}")
    v = float(value)   # type: ignore[arg-type]
    if not math.isfinite(v):
        raise CatchTenError(name, "not a finite number", f"{name}={described(value)}; "
                            f"{rng}{unit}")
    if not ((v > lo if lo_open else v >= lo) and v <= hi):
        raise CatchTenError(name, "out of range", f"{name}={described(value)}; {rng}{unit}")
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
