"""Simulate many deals under given rules and policies: the public entry point.

>>> from catchten_sim import Rules
>>> from catchten_sim.simulate import simulate
>>> res = simulate(Rules("foster", 4), n_deals=100_000, seed=1)
>>> res.ten["p_caught"]  # doctest: +SKIP

Deals are numbered 0, 1, 2, …; deal ``i`` is dealt by seat ``i % n`` (the deal rotates,
so every seat deals equally often) and its random numbers come from a counter-based
generator keyed by ``(seed, i)``: the result depends only on the seed, never on the
number of threads or the chunk size.
"""
from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ._lazy import pandas as pd

if TYPE_CHECKING:
    import pandas
from ._kernels import engine as K
from .aggregate import FIELDS, OutcomeAccumulator
from .errors import CatchTenError
from .policies import Policy
from .rules import Rules
from .runner import run_parallel

CHUNK = 1 << 17            # deals per kernel call (rows, only with on_chunk: CHUNK * cols * 2 B)
MAX_SEED = 2 ** 64 - 1
MAX_DEALS = 10 ** 12       # ~ a week at 2 M deals/s; deal numbers stay far below 2**63
FIRST_DEALER = "rotate"    # deal i is dealt by seat i % n


def seat_policies(rules: Rules, policy: object = "heuristic", opponents: object = None,
                  seats: dict[int, object] | None = None) -> tuple[Policy, ...]:
    """Policy of every seat: ``policy`` for side 0 (seat 0 and its partners),
    ``opponents`` (default: the same) for every other seat, then ``seats`` overrides.

    Raises
    ------
    CatchTenError
        ``unknown policy``, or a seat outside 0 … n-1.
    """
    mine = Policy.parse(policy, "policy")
    theirs = Policy.parse(opponents, "opponents") if opponents is not None else mine
    out = [mine if rules.side_of(s) == 0 else theirs for s in range(rules.players)]
    for seat, pol in (seats or {}).items():
        if not isinstance(seat, int) or not 0 <= seat < rules.players:
            raise CatchTenError("seat-policy", "seat out of range",
                                f"seat {seat!r} with {rules.players} players")
        out[seat] = Policy.parse(pol, "seat-policy")
    return tuple(out)


def _check_count(name: str, value: object, lo: int, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise CatchTenError(name, "not a whole number", f"{name}={value!r}")
    v = int(value)
    if v < lo or (hi is not None and v > hi):
        rng = f"{lo} or more" if hi is None else f"{lo} to {hi}"
        raise CatchTenError(name, "out of range", f"{name}={v} (allowed: {rng})")
    return v


def max_threads() -> int:
    """Threads available to this process (CPU affinity aware)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _next_mark(done: int) -> int:
    """The first convergence checkpoint (a power of two, 16 or more) after ``done`` deals."""
    return max(16, 1 << done.bit_length())


def _run_slices(kernel: Callable[[int, int, np.ndarray, np.ndarray], None], start: int,
                m: int, rows: np.ndarray, parts: list, pool: ThreadPoolExecutor | None,
                threads: int) -> None:
    """Run ``kernel(first_deal, count, rows, part)`` over deals ``start … start+m-1`` split
    into ``threads`` slices, slice ``i`` folding into ``parts[i]`` (the calling thread
    runs the last slice). ``rows`` has ``m`` rows or none.

    The split is :func:`catchten_sim.runner.run_parallel`'s."""
    has_rows = rows.shape[0] > 0

    def slot(i: int, a: int, b: int) -> None:
        kernel(start + a, b - a, rows[a:b] if has_rows else rows, parts[i])

    run_parallel(slot, m, pool, threads)


@dataclass(frozen=True)
class SimulationResult:
    """What a simulation found; every estimate carries its sample size and interval.

    Attributes
    ----------
    rules : Rules
    policies : tuple of Policy, one per seat
    seed : int
    n_deals : int
        Deals simulated (fewer than asked when ``interrupted``).
    acc : OutcomeAccumulator
        The streamed sums behind every number.
    elapsed_s : float
        Wall time of the simulation (compile time included on a cold start).
    interrupted : bool
    """

    rules: Rules
    policies: tuple[Policy, ...]
    seed: int
    n_deals: int
    requested: int
    threads: int
    acc: OutcomeAccumulator = field(repr=False)
    elapsed_s: float = 0.0
    interrupted: bool = False

    @property
    def ten(self) -> dict:
        """The Ten of trumps: counts of saved/caught/dead, ``p_caught`` and ``wilson95``."""
        return self.acc.ten_summary()

    def to_frame(self) -> pandas.DataFrame:
        """Per-position summary (see :meth:`OutcomeAccumulator.positions_frame`)."""
        return self.acc.positions_frame()

    def policy_label(self) -> str:
        """``heuristic``; ``heuristic (side 0) vs random`` when side 0's seats share one
        policy and every other seat another; else the policy of each seat."""
        names = sorted({p.label for p in self.policies})
        if len(names) == 1:
            return names[0]
        r = self.rules
        mine = {p.label for s, p in enumerate(self.policies) if r.side_of(s) == 0}
        theirs = {p.label for s, p in enumerate(self.policies) if r.side_of(s) != 0}
        if len(mine) == 1 and len(theirs) == 1:
            return f"{mine.pop()} (side 0) vs {theirs.pop()}"
        return ", ".join(f"seat {s} {p.label}" for s, p in enumerate(self.policies))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready result; the keys of docs/formats.md "Simulation output" are stable."""
        positions = []
        n = self.rules.players
        for row in self.acc.positions_rows():      # rows, not a frame: no pandas import
            pos = row["position"]
            entry: dict[str, Any] = {"position": int(pos),
                                     "role": ("eldest" if pos == 1 else
                                              "dealer" if pos == n else f"position {pos}")}
            for name in FIELDS:
                entry[name] = {"mean": _f(row[f"{name}_mean"]), "se": _f(row[f"{name}_se"])}
            entry["advantage"] = {"mean": _f(row["advantage_mean"]),
                                  "se": _f(row["advantage_se"]),
                                  "ci95": [_f(row["advantage_lo"]), _f(row["advantage_hi"])]}
            positions.append(entry)
        sides = []
        for row in self.acc.sides_rows():
            side = row["side"]
            sides.append({"side": int(side), "seats": self.rules.seats_of(int(side)),
                          "policies": sorted({self.policies[s].label
                                              for s in self.rules.seats_of(int(side))}),
                          "total": {"mean": _f(row["total_mean"]), "se": _f(row["total_se"])}})
        ten = self.ten
        ten = {k: (_f(v) if isinstance(v, float) else v) for k, v in ten.items()}
        ten["wilson95"] = [_f(x) for x in ten["wilson95"]]
        return {
            "rules": self.rules.to_dict(),
            "policies": {"seats": [p.label for p in self.policies],
                         "label": self.policy_label()},
            "seed": self.seed,
            "deals": self.n_deals,
            "requested_deals": self.requested,
            "interrupted": self.interrupted,
            "first_dealer": FIRST_DEALER,
            "ten": ten,
            "positions": positions,
            "sides": sides,
            "threads": self.threads,
            "elapsed_s": round(self.elapsed_s, 3),
            "deals_per_s": (round(self.n_deals / self.elapsed_s) if self.elapsed_s > 0 else None),
        }


def _f(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def simulate(rules: Rules, policies: Sequence[object] | object = "heuristic", *,
             n_deals: int = 1_000_000, seed: int = 1, threads: int | None = None,
             chunk: int = CHUNK,
             on_chunk: Callable[[np.ndarray, int], None] | None = None,
             progress: Callable[[int, int], None] | None = None) -> SimulationResult:
    """Deal and play ``n_deals`` deals and summarise them.

    Parameters
    ----------
    rules : Rules
    policies : a policy name/Policy for every seat, or a sequence of one per seat.
    n_deals : int
        Number of deals (>= 1).
    seed : int
        0 … 2**64 - 1. The result depends only on it (and the rules and policies).
    threads : int or None
        Threads for the kernel (None: all cores). Does not change the result.
    chunk : int
        Deals per kernel call; memory is bounded by it, results do not depend on it.
    on_chunk : callable(rows, first_deal_index), optional
        Receives each chunk of per-deal outcome rows (int16 array; see
        ``catchten_sim._kernels.engine`` for the columns), e.g. to write them to a file.
    progress : callable(done, total), optional

    Returns
    -------
    SimulationResult

    Raises
    ------
    CatchTenError
        Bad ``n_deals``, ``seed``, ``threads`` or policy.

    Notes
    -----
    A KeyboardInterrupt between chunks stops the run and returns what was simulated so
    far with ``interrupted=True``: nothing already computed is lost.
    """
    n_deals = _check_count("deals", n_deals, 1, MAX_DEALS)
    seed = _check_count("seed", seed, 0, MAX_SEED)
    if threads is not None:
        threads = _check_count("threads", threads, 1, 1024)
    chunk = _check_count("chunk", chunk, 1)
    pols = Policy.per_seat(policies, rules.players)
    t = rules.tables()
    from .pimc import DealDriver, is_pimc, simulate_pimc
    with_pimc = any(is_pimc(p) for p in pols)
    pol_arr = None if with_pimc else np.array([int(p) for p in pols], dtype=np.int64)
    acc = OutcomeAccumulator(rules.players, t.side_of_seat)
    ncols = K.N_FIXED + rules.players * K.N_PER_POS
    # per-deal rows only when someone wants them; the kernel folds every deal into a
    # per-thread flat accumulator (OutcomeAccumulator layout) and the slices are summed
    buf = np.zeros((min(chunk, n_deals), ncols), dtype=np.int16) if on_chunk else None
    no_rows = np.zeros((0, ncols), dtype=np.int16)
    start_time = time.perf_counter()
    done = 0
    interrupted = False
    used = max_threads() if threads is None else threads
    seed_u = np.uint64(seed)
    parts = [acc.new_part() for _ in range(used)]
    scratch = {id(p): K.scratch(t) for p in parts}   # one per thread
    off = acc.offsets

    if with_pimc:
        # pimc seats: decided deal by deal from Python (catchten_sim.pimc), the solver's
        # threads inside each decision; the deals are those of the kernel path
        driver = DealDriver(rules, pols, seed, threads=used)
        solver_threads = used
        used = 1
        parts = parts[:1]
        chunk = min(chunk, 16)

    def kernel(first: int, count: int, rows: np.ndarray, part: np.ndarray) -> None:
        if with_pimc:
            simulate_pimc(rules, pols, seed, first, count, rows, part, off, driver)
            return
        K.run_chunk(t, pol_arr, seed_u, np.int64(first), np.int64(count), rows, (part, off),
                    scratch[id(part)])

    with ThreadPoolExecutor(max_workers=used - 1) if used > 1 else _nullpool() as pool:
        try:
            while done < n_deals:
                # chunks end on the convergence checkpoints (powers of two from 16)
                m = min(chunk, n_deals - done, _next_mark(done) - done)
                rows = buf[:m] if buf is not None else no_rows
                _run_slices(kernel, done, m, rows, parts, pool, used)
                total = parts[0]
                for p in parts[1:]:
                    total += p
                    p[:] = 0
                # a chunk is counted and written whole or not at all: Ctrl-C here waits
                # until both are done, so a --out file holds exactly the deals counted
                with _sigint_deferred():
                    acc.add_flat(total)
                    total[:] = 0
                    if on_chunk is not None:
                        on_chunk(rows, done)
                    done += m
                if progress is not None:
                    progress(done, n_deals)
        except KeyboardInterrupt:
            interrupted = True
            done = acc.n_deals      # the deals folded in, wherever the interrupt landed
    elapsed = time.perf_counter() - start_time
    if done == 0:
        raise KeyboardInterrupt
    return SimulationResult(rules, pols, seed, done, n_deals,
                            solver_threads if with_pimc else used, acc, elapsed, interrupted)


@contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) that arrives inside the block until the block ends, then
    raise KeyboardInterrupt. Outside the main thread (where handlers cannot be set) the
    block runs as is."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[object] = []
    try:
        old = signal.signal(signal.SIGINT, lambda *a: caught.append(a))
    except ValueError:          # not settable here (e.g. an embedded interpreter)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught:
        raise KeyboardInterrupt


@contextmanager
def _nullpool() -> Iterator[None]:
    yield None


def outcome_columns(n_players: int) -> list[str]:
    """Names of the per-deal outcome columns (for ``--out`` files)."""
    fixed = ["dealer", "trumps", "ten_holder_position", "ten_taker_position", "ten_fate",
             "holder_trumps"]
    per = ["honours", "cards_taken", "card_points", "total", "side_tricks", "seat_tricks",
           "honours_dealt", "seat_trumps"]
    return fixed + [f"p{p}_{name}" for p in range(1, n_players + 1) for name in per]


class DealWriter:
    """Writes per-deal rows to CSV or Parquet chunk by chunk (memory stays flat).

    Parameters
    ----------
    path : .csv or .parquet file
    n_players : int

    Raises
    ------
    CatchTenError
        ``out``: unknown suffix, or the file cannot be written.
    """

    def __init__(self, path: str | Path, n_players: int) -> None:
        self.path = Path(path)
        self.cols = outcome_columns(n_players)
        suffix = self.path.suffix.lower()
        if suffix not in (".csv", ".parquet"):
            raise CatchTenError("out", "unknown file type",
                                f"{self.path.name}: use .csv or .parquet")
        self.kind = suffix[1:]
        self._writer: Any = None
        from .paths import ensure_dir
        ensure_dir(self.path.parent, "out")
        try:
            if self.kind == "csv":
                self._fh = self.path.open("w", newline="")
        except OSError as exc:
            raise CatchTenError("out", "cannot write", f"{self.path}: {exc.strerror}") from None

    def __call__(self, rows: np.ndarray, first: int) -> None:
        df = pd.DataFrame(rows, columns=self.cols)
        df.insert(0, "deal", np.arange(first, first + len(rows), dtype=np.int64))
        fate = np.array(["saved", "caught", "dead", "no_trumps"])
        df["ten_fate"] = fate[df["ten_fate"].to_numpy()]
        if self.kind == "csv":
            df.to_csv(self._fh, header=(first == 0), index=False)
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq
            table = pa.Table.from_pandas(df, preserve_index=False)
            if self._writer is None:
                self._writer = pq.ParquetWriter(self.path, table.schema)
            self._writer.write_table(table)

    def close(self) -> None:
        if self.kind == "csv":
            self._fh.close()
        elif self._writer is not None:
            self._writer.close()
