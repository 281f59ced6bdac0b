"""The chunk plan of a run: which items each chunk holds, and the job's identity.

The plan depends only on the numbers of the job (items, chunk size), never on the
executor or the thread count (:mod:`catchten_sim.run`).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

FIRST_MARK = 16            # the plan's chunks end on powers of two from 16 (convergence)


@dataclass(frozen=True)
class Chunk:
    """One unit of work of a plan: items ``first … first+count-1``, number ``index``."""

    index: int
    first: int
    count: int


def chunk_plan(n_items: int, chunk: int, marks: bool = True) -> np.ndarray:
    """Edges of the chunk plan of ``n_items`` items with at most ``chunk`` per chunk.

    Chunks end on every power of two from 16 (with ``marks``: the points of the
    convergence curve), on every multiple of ``chunk`` and at ``n_items``; the plan
    depends on these numbers only, never on the executor or the thread count.

    Returns
    -------
    ndarray int64 (n_chunks + 1,)
        Chunk ``i`` holds items ``edges[i] … edges[i+1]-1``.
    """
    ends = [1 << k for k in range(FIRST_MARK.bit_length() - 1, 63)
            if (1 << k) < n_items] if marks else []
    steps = np.arange(0, int(n_items), int(chunk), dtype=np.int64)
    edges = np.union1d(np.asarray(ends, np.int64), steps)
    return np.append(edges, np.int64(n_items)).astype(np.int64)


def plan_rule() -> str:
    """Where :func:`chunk_plan` ends its chunks, in words (run directory manifests)."""
    return f"powers of two from {FIRST_MARK}, multiples of chunk, and the last item"


def plan_chunks(edges: np.ndarray, indices: Iterable[int] | None = None) -> Iterator[Chunk]:
    """The chunks of a plan (all, or those of ``indices``), in plan order."""
    idx = range(len(edges) - 1) if indices is None else indices
    for i in idx:
        a, b = int(edges[i]), int(edges[i + 1])
        yield Chunk(i, a, b - a)



def _version() -> str:
    from .. import __version__
    return __version__


def job_key(job: dict[str, Any]) -> str:
    """A short stable hash of a job's description (Dask task keys, scratch cache)."""
    blob = json.dumps({"version": _version(), **job}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
