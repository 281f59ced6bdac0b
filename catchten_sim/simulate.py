"""Simulate many deals under given rules and policies: the public entry point.

>>> from catchten_sim import Rules
>>> from catchten_sim.simulate import simulate
>>> res = simulate(Rules("foster", 4), n_deals=10_000, seed=1)
>>> res.ten["p_caught"]
0.2395

Deals are numbered 0, 1, 2, …; deal ``i`` is dealt by seat ``i % n`` (the deal rotates,
so every seat deals equally often) and its random numbers come from a counter-based
generator keyed by ``(seed, i)``: the result depends only on the seed, never on the
number of threads or the chunk size.
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Sequence

import numpy as np

from ._lazy import pandas as pd

if TYPE_CHECKING:
    import pandas
from ._kernels import engine as K
from .aggregate import FIELDS, OutcomeAccumulator, json_number
from .checks import MAX_DEALS, check_count, check_seed, check_threads, max_threads
from .errors import CatchTenError
from .paths import ensure_parent
from .policies import Policy, Seating
from . import run
from .run import (REDUCERS, RunDir, check_executor_options, chunk_plan, job_key,
                     manifest_rules, open_of_kind, plan_rule)
from .rules import Rules, check_rules

CHUNK = 1 << 17            # deals per kernel call (rows, only with on_chunk: CHUNK * cols * 2 B)
FIRST_DEALER = "rotate"    # deal i is dealt by seat i % n


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
    compile_s : float
        Seconds of ``elapsed_s`` spent compiling the engine's kernels (a cold numba cache;
        0 when they were loaded from the cache). ``deals_per_s`` leaves them out.
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
    #: the sums of the ``reduce`` counts over the deals (int64), when asked for
    extra: np.ndarray | None = field(default=None, repr=False)
    #: where the deals ran: the executor's ``describe()`` (e.g. ``Dask LocalCluster, 2
    #: worker threads``); empty when read from a run directory
    executor: str = ""
    compile_s: float = 0.0

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
                entry[name] = {"mean": json_number(row[f"{name}_mean"]),
                               "se": json_number(row[f"{name}_se"])}
            entry["advantage"] = {"mean": json_number(row["advantage_mean"]),
                                  "se": json_number(row["advantage_se"]),
                                  "ci95": [json_number(row["advantage_lo"]),
                                           json_number(row["advantage_hi"])]}
            positions.append(entry)
        sides = []
        for row in self.acc.sides_rows():
            side = row["side"]
            sides.append({"side": int(side), "seats": self.rules.seats_of(int(side)),
                          "policies": sorted({self.policies[s].label
                                              for s in self.rules.seats_of(int(side))}),
                          "total": {"mean": json_number(row["total_mean"]),
                                    "se": json_number(row["total_se"])}})
        ten = self.ten
        ten = {k: (json_number(v) if isinstance(v, float) else v) for k, v in ten.items()}
        ten["wilson95"] = [json_number(x) for x in ten["wilson95"]]
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
            "compile_s": round(self.compile_s, 3),
            "deals_per_s": (round(self.n_deals / (self.elapsed_s - self.compile_s))
                            if self.elapsed_s - self.compile_s > 0 else None),
        }



class DealTask:
    """The simulation as a run-engine task (:mod:`catchten_sim.run`): deals ``first …
    first+count-1`` played and folded into a flat accumulator (the
    :class:`~catchten_sim.aggregate.OutcomeAccumulator` layout, int64), plus their outcome
    rows (int16) when ``rows`` is set. Picklable (for Dask): it carries the rules as a
    dict and builds the tables on first use in each process."""

    def __init__(self, rules: Rules, policies: Sequence[Any], seed: int,
                 rows: bool = False, reduce: Any = None) -> None:
        self.rules_dict = rules.to_dict()
        self.pols = tuple(policies)
        #: some seat plays ``pimc``: deals are played from Python (catchten_sim.pimc), the
        #: solver's ``solver_threads`` threads inside each decision
        self.pimc = Seating.of(self.pols).any_driven
        self.solver_threads = 1
        self.seed = int(seed)
        self.rows = rows
        #: counts of each chunk's rows summed beside the accumulator (``reduce.size``
        #: int64 values after its ``size``; ``reduce.counts(rows)``), picklable
        self.reduce = reduce
        self.key = "sim-" + job_key({"rules": self.rules_dict, "seed": self.seed,
                                     "policies": [p.label for p in self.pols],
                                     "reduce": getattr(reduce, "name", None)})
        self._state: Any = None

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_state": None}

    def _tables(self):
        if self._state is None:
            r = self.rules_dict
            rules = Rules(r["preset"], r["players"], r["variants"])
            t = rules.tables()
            acc = OutcomeAccumulator(rules.players, t.side_of_seat)
            ncols = K.N_FIXED + rules.players * K.N_PER_POS
            pol_arr = None if self.pimc else np.array([int(p) for p in self.pols], np.int64)
            self._state = (t, pol_arr, acc.offsets, int(acc.flat.size), ncols, rules)
        return self._state

    def scratch(self):
        if self.pimc:
            from .pimc import DealDriver      # lazy: the solver's modules, pimc seats only
            return DealDriver(self._tables()[5], self.pols, self.seed,
                              threads=self.solver_threads)
        return K.scratch(self._tables()[0])

    def run(self, first: int, count: int, scr) -> tuple[np.ndarray, np.ndarray | None]:
        t, pol_arr, off, size, ncols, rules = self._tables()
        part = np.zeros(size, np.int64)
        want = self.rows or self.reduce is not None
        rows = np.zeros((count if want else 0, ncols), np.int16)
        if self.pimc:
            from .pimc import simulate_pimc   # lazy, as in scratch()
            simulate_pimc(rules, self.pols, self.seed, first, count, rows, part, off, scr)
        else:
            K.run_chunk(t, pol_arr, np.uint64(self.seed), np.int64(first), np.int64(count),
                        rows, (part, off), scr)
        if self.reduce is not None:
            part = np.concatenate([part, np.asarray(self.reduce.counts(rows), np.int64)])
        return part, (rows if self.rows else None)

    def combine(self, parts: list) -> tuple[np.ndarray, np.ndarray | None]:
        flat = parts[0][0]
        for p, _ in parts[1:]:
            flat += p
        rows = np.concatenate([r for _, r in parts]) if self.rows else None
        return flat, rows

    def to_array(self, partial) -> np.ndarray:
        return partial[0]

    def from_array(self, a: np.ndarray):
        size = self._tables()[3] + (self.reduce.size if self.reduce is not None else 0)
        if a.shape != (size,):
            raise CatchTenError("run-dir", "chunk file does not fit the plan",
                                f"{a.shape[0]} values, expected {size}")
        return a, None

    def warm(self) -> None:
        self.run(0, 16, self.scratch())


def _job(rules: Rules, pols: Sequence[Policy], seed: int, n_deals: int, chunk: int,
         reduce: Any = None) -> dict[str, Any]:
    """The manifest entry of a simulation (run directories)."""
    job = {"kind": "simulate", "rules": rules.to_dict(), "policies": [p.label for p in pols],
           "seed": seed, "deals": n_deals, "chunk": chunk,
           "plan": {"chunks": len(chunk_plan(n_deals, chunk)) - 1, "ends": plan_rule()}}
    if reduce is not None:
        job["reduce"] = reduce.name
    return json.loads(json.dumps(job))


def simulate(rules: Rules, policies: Sequence[object] | object = "heuristic", *,
             n_deals: int = 1_000_000, seed: int = 1, threads: int | None = None,
             chunk: int = CHUNK,
             on_chunk: Callable[[np.ndarray, int], None] | None = None,
             progress: Callable[[int, int], None] | None = None,
             run_dir: str | Path | None = None, scheduler: str | None = None,
             workers: int | None = None, reduce: Any = None,
             executor: Any = None, outputs: dict[str, Any] | None = None
             ) -> SimulationResult:
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
        Deals per chunk (the unit of work, of progress and of a run directory); memory
        is bounded by it, results do not depend on it.
    on_chunk : callable(rows, first_deal_index), optional
        Receives each chunk of per-deal outcome rows (int16 array; see
        ``catchten_sim._kernels.engine`` for the columns) in deal order, e.g. to write them
        to a file. Not with ``run_dir`` or a Dask cluster.
    progress : callable(done, total), optional
    run_dir : path, optional
        Write every finished chunk there (:class:`catchten_sim.run.RunDir`); an existing
        run directory of the same run continues where it stopped (:func:`resume`).
    scheduler : str, optional
        ``tcp://HOST:PORT`` of a running Dask scheduler: the chunks run on its workers.
    workers : int, optional
        Start a Dask ``LocalCluster`` of this many single-threaded worker processes.
    reduce : object, optional
        Further counts from the per-deal rows, summed over the deals into the result's
        ``extra`` (int64 (``reduce.size``,)): ``reduce.counts(rows)`` gives a chunk's,
        ``reduce.name`` names them in a run directory's manifest. Picklable for Dask.
        Unlike ``on_chunk`` it works with run directories and clusters.
    executor : object, optional
        A :func:`catchten_sim.run.make_executor` executor shared by several runs (a
        report's): used instead of ``threads`` / ``scheduler`` / ``workers``, not closed.
    outputs : dict, optional
        Kept in the run directory's manifest (JSON-able; the CLI's ``{"report": DIR}``;
        :data:`catchten_sim.run.UNCOMPARED`), so that ``catchten resume`` writes the
        files the command asked for.

    Returns
    -------
    SimulationResult

    Raises
    ------
    CatchTenError
        Bad ``n_deals``, ``seed``, ``threads`` or policy; a run directory made for another
        run or that cannot be written.

    Notes
    -----
    A KeyboardInterrupt between chunks stops the run and returns what was simulated so
    far with ``interrupted=True``: nothing already computed is lost. The numbers are the
    same on every executor (inline, threads, Dask) and after a resume.
    """
    check_rules(rules)
    n_deals = check_count("deals", n_deals, 1, MAX_DEALS)
    seed = check_seed(seed)
    if threads is not None:
        threads = check_threads(threads)
    chunk = check_count("chunk", chunk, 1)
    pols = Policy.per_seat(policies, rules.players)
    if Seating.of(pols).any_driven:
        chunk = min(chunk, 16)          # pimc deals are slow: progress and saves often
        if scheduler or workers:        # refused before a run directory is made
            _refuse_pimc_on_dask(scheduler)
    check_executor_options(scheduler, workers)
    if on_chunk is not None and (run_dir is not None or scheduler or workers):
        raise CatchTenError("out", "not with --run-dir or a Dask cluster",
                            "per-deal rows are written in deal order by a local run only")
    rd = None
    if run_dir is not None:
        rd = RunDir.create_or_open(run_dir, {**_job(rules, pols, seed, n_deals, chunk, reduce),
                                             **({"outputs": outputs} if outputs else {})})
    return _run(rules, pols, seed, n_deals, chunk, threads=threads, on_chunk=on_chunk,
                progress=progress, run_dir=rd, scheduler=scheduler, workers=workers,
                reduce=reduce, executor=executor)


def _refuse_pimc_on_dask(scheduler: str | None) -> None:
    raise CatchTenError("scheduler" if scheduler else "workers",
                        "pimc seats run on this machine",
                        "the solver's threads work inside each decision; run it without "
                        "--scheduler/--workers")


def _run(rules: Rules, pols: tuple[Policy, ...], seed: int, n_deals: int, chunk: int, *,
         threads: int | None, on_chunk, progress, run_dir, scheduler, workers,
         compute: bool = True, reduce: Any = None, executor: Any = None
         ) -> SimulationResult:
    """A simulation on the run engine (``compute=False``: fold only the chunks already in
    ``run_dir``; ``executor``: a shared one, used and left open)."""
    task = DealTask(rules, pols, seed, rows=on_chunk is not None, reduce=reduce)
    edges = run.chunk_plan(n_deals, chunk)
    t = rules.tables()
    acc = OutcomeAccumulator(rules.players, t.side_of_seat)
    off = acc.offsets
    o_fate = int(off[K.A_FATE])
    total = np.zeros(acc.flat.size + (reduce.size if reduce is not None else 0), np.int64)
    curve: dict[int, tuple[int, int, int]] = {}

    def fold(c, partial) -> None:
        flat, rows = partial
        nonlocal total
        total += flat
        caught = int(flat[o_fate + K.FATE_CAUGHT])
        curve[c.index] = (c.count, caught, caught + int(flat[o_fate + K.FATE_SAVED]))
        if on_chunk is not None:
            on_chunk(rows, c.first)

    shared = executor
    if not compute or (run_dir is not None and not run_dir.compute):
        compute = False
        executor = run.NoRun()
    elif task.pimc:
        if scheduler or workers or (shared is not None and not shared.ordered):
            _refuse_pimc_on_dask(scheduler)
        task.solver_threads = max_threads() if threads is None else threads
        executor = run.InlineExecutor()
        executor.threads = task.solver_threads
    elif shared is None:
        executor = run.make_executor(threads, scheduler, workers)
    if on_chunk is not None and not executor.ordered:
        raise CatchTenError("out", "not with a Dask cluster",
                            "per-deal rows are written in deal order by a local run only")
    try:
        out = run.run(task, edges, executor, fold, run_dir=run_dir, progress=progress)
    finally:
        if executor is not shared:
            executor.close()
    if not out.done:
        if compute:
            raise KeyboardInterrupt
        raise CatchTenError("run-dir", "no finished chunk yet", str(run_dir.path))
    # the order-free fold, assembled: the sums, then the convergence curve over the chunks
    # done without a gap from the start (a Dask run may stop with gaps)
    acc.flat[:] = total[:acc.flat.size]
    acc.n_deals = acc.side_count = out.items
    done = 0
    caught = inplay = 0
    for i in range(len(edges) - 1):
        if i not in curve:
            break
        m, c_, p_ = curve[i]
        done, caught, inplay = done + m, caught + c_, inplay + p_
        acc.convergence.append((done, caught, inplay))
    return SimulationResult(rules, pols, seed, out.items, n_deals, out.threads, acc,
                            out.elapsed_s, out.items < n_deals,
                            total[acc.flat.size:] if reduce is not None else None,
                            executor.describe() if compute else "", out.compile_s)


def open_run(run_dir: str | Path) -> tuple[Rules, tuple[Policy, ...], int, int, int, Any]:
    """The rules, policies, seed, deals and chunk of a simulation's run directory.

    Raises
    ------
    CatchTenError
        Not a run directory, another version, or not a simulation.
    """
    rd, (rules, pols, seed, n_deals, chunk) = open_of_kind(
        run_dir, ("simulate",), "a simulation",
        lambda m: (manifest_rules(m), tuple(Policy.parse(p) for p in m["policies"]),
                   int(m["seed"]), int(m["deals"]), int(m["chunk"])))
    return rules, pols, seed, n_deals, chunk, rd


def resume(run_dir: str | Path, *, threads: int | None = None, scheduler: str | None = None,
           workers: int | None = None,
           progress: Callable[[int, int], None] | None = None) -> SimulationResult:
    """Finish the simulation of a run directory: run the chunks not yet there. The result
    equals that of an uninterrupted run with the same seed, exactly.

    Raises
    ------
    CatchTenError
        As :func:`open_run`; the directory cannot be written.
    """
    rules, pols, seed, n_deals, chunk, rd = open_run(run_dir)
    return _run(rules, pols, seed, n_deals, chunk, threads=threads, on_chunk=None,
                progress=progress, run_dir=rd, scheduler=scheduler, workers=workers,
                reduce=_reducer(rd, rules))


def summarize(run_dir: str | Path) -> SimulationResult:
    """The result of a run directory's finished chunks, without running anything
    (``interrupted`` when some chunks are missing).

    Raises
    ------
    CatchTenError
        As :func:`open_run`; ``no finished chunk yet``.
    """
    rules, pols, seed, n_deals, chunk, rd = open_run(run_dir)
    return _run(rules, pols, seed, n_deals, chunk, threads=None, on_chunk=None,
                progress=None, run_dir=rd, scheduler=None, workers=None, compute=False,
                reduce=_reducer(rd, rules))


def _reducer(rd: Any, rules: Rules) -> Any:
    """The ``reduce`` object a run directory's manifest names (None when none)."""
    name = rd.manifest.get("reduce")
    if name is None:
        return None
    if name not in REDUCERS:
        raise CatchTenError("run-dir", "unknown counts", f"{rd.path}: reduce {name!r}")
    mod, cls = REDUCERS[name].split(":")
    return getattr(importlib.import_module(mod), cls)(rules)


def from_run_dir(run_dir: Any, **options: Any) -> SimulationResult:
    """:func:`resume` (or, with ``run_dir.compute`` false, :func:`summarize`) for the
    run engine's kinds table (:data:`catchten_sim.run.KINDS`)."""
    return resume(run_dir, **options)


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
        ensure_parent(self.path, "out")
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
