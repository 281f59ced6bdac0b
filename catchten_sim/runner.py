"""The thread-split loop, written once: run a kernel over slices of a range of work.

Every entry kernel releases the GIL and draws its random numbers from streams keyed by
the item's number (a deal, a game, a sample), so the split never changes the result.
(A numba ``prange`` loop would do the same, but compiling it with the inlined heuristic
costs ~25 s more per cold start.)
"""
from __future__ import annotations

from concurrent.futures import Executor
from collections.abc import Callable


def split_range(count: int, threads: int) -> list[tuple[int, int]]:
    """``[0, count)`` as ``threads`` contiguous ``(a, b)`` slices (one slice when the
    work is too small to split: fewer than two items per thread)."""
    if threads <= 1 or count < 2 * threads:
        return [(0, count)]
    edges = [count * i // threads for i in range(threads + 1)]
    return [(edges[i], edges[i + 1]) for i in range(threads)]


def run_parallel(fn: Callable[[int, int, int], None], count: int, pool: Executor | None,
                 threads: int) -> None:
    """``fn(slot, a, b)`` over ``[0, count)`` split into slices, slot ``i`` on slice ``i``;
    the calling thread runs the last slice, ``pool`` (``threads - 1`` workers) the others.
    Exceptions of any slice are raised here."""
    parts = split_range(count, threads if pool is not None else 1)
    futures = [] if pool is None else [pool.submit(fn, i, a, b)
                                       for i, (a, b) in enumerate(parts[:-1])]
    i, (a, b) = len(parts) - 1, parts[-1]
    fn(i, a, b)
    for f in futures:
        f.result()
