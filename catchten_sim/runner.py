"""The run engine: every long job (simulate, games, equity samples) runs through here.

A job is a *task* run over a *chunk plan* by an *executor*, and folded by the caller::

    edges = chunk_plan(n_items, chunk)                # depends on these numbers only
    executor = make_executor(threads, scheduler, workers)   # inline, threads or Dask
    try:
        out = run(task, edges, executor, fold, run_dir=rd, progress=cb)
    finally:
        executor.close()
    # out.items, out.done (chunk indices), out.interrupted, out.elapsed_s, out.threads

``task`` (duck-typed; :class:`catchten_sim.simulate.DealTask` is the full example):
``key`` (str, the job's identity), ``scratch()`` (per-worker work arrays),
``run(first, count, scratch) -> partial``, ``combine([partial, ...]) -> partial`` (slices in
order), and for run directories / Dask ``to_array(partial)`` / ``from_array(a)`` (a 1-D int64
array) and ``warm()``. ``fold(chunk, partial)`` is called once per finished chunk, in plan
order on the local executors and in any order on Dask, so it must not depend on the order
(sum, or write at ``chunk.first``); a Ctrl-C between chunks ends the run with what is
folded (:func:`run` is the one place that handles it).

Executors (:func:`make_executor`): :class:`InlineExecutor`, :class:`ThreadExecutor`,
:class:`DaskExecutor`, and :class:`NoRun` for a summary; each has ``threads``,
``ordered``, ``map(task, chunks)``, ``describe()`` (one line, logged in a run directory)
and ``close()``; work areas are kept per task key for the executor's life.

Run directories (:class:`RunDir`) hold one kind of job each: ``simulate``, ``games``,
``equity``, ``match``, ``report`` (:data:`KINDS`: the module whose ``from_run_dir``
finishes or summarizes it; :func:`open_any` opens any of them for ``catchten resume`` /
``catchten summarize``).

The thread-split loop is written once too (:func:`run_parallel`): every entry kernel
releases the GIL and draws its random numbers from streams keyed by the item's number (a
deal, a game, a sample), so the split never changes the result. (A numba ``prange`` loop
would do the same, but compiling it with the inlined heuristic costs ~25 s more per cold
start.)
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .checks import max_threads
from .errors import CatchTenError


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
    Exceptions of any slice (a Ctrl-C in the calling thread included) are raised here
    once no slice is running (no work area is left in use)."""
    parts = split_range(count, threads if pool is not None else 1)
    futures = [] if pool is None else [pool.submit(fn, i, a, b)
                                       for i, (a, b) in enumerate(parts[:-1])]
    i, (a, b) = len(parts) - 1, parts[-1]
    try:
        fn(i, a, b)
        for f in futures:
            f.result()
    finally:
        wait(futures)


FIRST_MARK = 16            # the plan's chunks end on powers of two from 16 (convergence)
RUN_FORMAT = "catchten-run/1"
#: manifest entries that say where or when, not what: a run directory reopened with other
#: values there is the same run (``out``: where a report's files go; ``outputs``: the files
#: the command writes besides, e.g. ``equity --out``, ``match --report``, which ``catchten
#: resume`` writes again); a reopening that gives new ones records them
UNCOMPARED = frozenset({"created", "out", "outputs"})
MANIFEST = "manifest.json"
CHUNKS = "chunks"


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


@contextlib.contextmanager
def sigint_deferred(children: bool = False) -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) that arrives inside the block until the block ends, then
    raise KeyboardInterrupt (a chunk is folded and written whole or not at all). Outside
    the main thread (where handlers cannot be set) the block runs as is.

    ``children``: also block SIGINT in this thread for the block, so that the threads
    started inside inherit the block, and so do the processes they start (a blocked signal
    stays blocked across fork and exec): a local Dask cluster's worker processes never see
    the terminal's Ctrl-C, not even while they import, before their preload can ignore it
    (:mod:`catchten_sim._dask_worker`). A Ctrl-C pending at the end is held like any other.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[object] = []
    try:
        old = signal.signal(signal.SIGINT, lambda *a: caught.append(a))
    except ValueError:          # not settable here (e.g. an embedded interpreter)
        yield
        return
    mask = None
    if children and hasattr(signal, "pthread_sigmask"):
        # multiprocessing starts its resource tracker before the first process it spawns
        # and then *unblocks* SIGINT in the spawning thread: start it first, here
        from multiprocessing import resource_tracker
        resource_tracker.ensure_running()
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if mask is not None:    # a Ctrl-C pending since is delivered now, to `caught`
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, old)
    if caught:
        raise KeyboardInterrupt


class _Scratches:
    """Per-slot work areas kept for the executor's life, by task key: a task mapped again
    (advise's rollouts map one batch at a time) reuses them."""

    def __init__(self) -> None:
        self._by_key: dict[str, list[Any]] = {}

    def get(self, task: Any, slots: int) -> list[Any]:
        scr = self._by_key.get(task.key)
        if scr is None or len(scr) != slots:
            scr = self._by_key[task.key] = [task.scratch() for _ in range(slots)]
        return scr

    def close(self) -> None:
        """Close the work areas that hold resources of their own (a ``pimc`` deal
        driver's solver threads)."""
        for scr in self._by_key.values():
            for s in scr:
                close = getattr(s, "close", None)
                if callable(close):
                    close()
        self._by_key.clear()


class InlineExecutor:
    """Every chunk in the calling thread, in plan order."""

    ordered = True
    threads = 1

    def __init__(self) -> None:
        self._scr = _Scratches()

    def describe(self) -> str:
        return f"inline, {self.threads} thread" + ("s" if self.threads != 1 else "")

    def map(self, task: Any, chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Any]]:
        scr = self._scr.get(task, 1)[0]
        for c in chunks:
            yield c, task.run(c.first, c.count, scr)

    def close(self) -> None:
        self._scr.close()


class ThreadExecutor:
    """Chunks in plan order, each split over ``threads`` threads (:func:`run_parallel`);
    one scratch per thread, kept for the whole run."""

    ordered = True

    def __init__(self, threads: int) -> None:
        self.threads = max(1, int(threads))
        self._pool = ThreadPoolExecutor(self.threads - 1) if self.threads > 1 else None
        self._scr = _Scratches()

    def describe(self) -> str:
        return f"threads, {self.threads}"

    def map(self, task: Any, chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Any]]:
        scr = self._scr.get(task, self.threads)
        for c in chunks:
            out: list[Any] = [None] * self.threads

            def slice_(slot: int, a: int, b: int, c: Chunk = c, out: list = out) -> None:
                out[slot] = task.run(c.first + a, b - a, scr[slot])

            run_parallel(slice_, c.count, self._pool, self.threads)
            yield c, task.combine([p for p in out if p is not None])

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self._scr.close()


class NoRun:
    """The executor of a summary: runs no chunk (only those in the run directory are
    folded)."""

    ordered = True
    threads = 0

    def describe(self) -> str:
        return "none"

    def map(self, task: Any, chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Any]]:
        yield from ()

    def close(self) -> None:
        pass


#: who hears the engine's notices ("connecting to the Dask scheduler at ..."): the CLI
#: prints them on stderr (:func:`notices`); a library caller hears nothing
_NOTICE: list[Callable[[str], None]] = []


@contextlib.contextmanager
def notices(say: Callable[[str], None]) -> Iterator[None]:
    """Send the run engine's notices (waits a user would otherwise see as silence: a
    cluster starting, a scheduler being reached) to ``say`` inside the block."""
    _NOTICE.append(say)
    try:
        yield
    finally:
        _NOTICE.remove(say)


def _notice(msg: str) -> None:
    for say in _NOTICE[-1:]:
        say(msg)


#: seconds to reach a Dask scheduler (the connection and its reply to ``identity``)
SCHEDULER_TIMEOUT = 10.0


def probe_scheduler(address: str, timeout: float | None = None) -> None:
    """Check that ``address`` is a Dask scheduler that answers, within ``timeout`` seconds
    (default :data:`SCHEDULER_TIMEOUT`).

    ``distributed.Client(address, timeout=...)`` does not bound the handshake: a server
    that accepts the connection and never answers (an HTTP server) hangs it forever, and
    one that answers garbage can make it allocate exabytes. This asks the scheduler's
    ``identity`` under one deadline and turns every failure into one line.

    Raises
    ------
    CatchTenError
        ``scheduler: cannot connect`` (refused, unreachable, timed out) or ``scheduler:
        not a Dask scheduler`` (an answer that is not a scheduler's).
    """
    import asyncio

    from distributed.comm import connect
    timeout = SCHEDULER_TIMEOUT if timeout is None else timeout

    async def ask() -> Any:
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    if address in _PROBED:
        return
    _notice(f"connecting to the Dask scheduler at {address} ...")
    try:
        # on a thread of its own: the caller may be inside an event loop (a notebook)
        with ThreadPoolExecutor(1) as one:
            reply = one.submit(lambda: asyncio.run(asyncio.wait_for(ask(), timeout))).result()
    except TimeoutError:
        raise CatchTenError("scheduler", "cannot connect",
                            f"{address}: no answer within {timeout:g} s") from None
    except OSError as exc:                   # refused, unreachable, closed by the peer
        raise CatchTenError("scheduler", "cannot connect",
                            f"{address}: {' '.join(str(exc).split()) or type(exc).__name__}"
                            ) from None
    except (MemoryError, Exception) as exc:  # noqa: BLE001 - garbage from the peer
        raise CatchTenError("scheduler", "not a Dask scheduler",
                            f"{address}: its answer did not parse ({type(exc).__name__})"
                            ) from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise CatchTenError("scheduler", "not a Dask scheduler",
                            f"{address}: it answered {str(reply)[:60]!r}")
    _PROBED.add(address)


#: scheduler addresses that answered as schedulers in this process (probed once)
_PROBED: set[str] = set()

#: seconds a run on a running scheduler waits for its first worker before it says so
WORKER_NOTICE = 10.0


def waiting_for_workers_line(address: str, after: float) -> str:
    """The notice of a run whose scheduler at ``address`` has had no worker for ``after``
    seconds (it keeps waiting)."""
    return (f"waiting for workers at {address}: none has joined in {after:g} s (start one: "
            f"dask worker {address}; Ctrl-C stops)")


_WORKER_SCRATCH: dict[tuple[str, int], Any] = {}


def _dask_chunk(task: Any, first: int, count: int) -> Any:
    """A chunk on a Dask worker, with the worker thread's own scratch (kept across
    chunks of the same job)."""
    k = (task.key, threading.get_ident())
    scr = _WORKER_SCRATCH.get(k)
    if scr is None:
        scr = _WORKER_SCRATCH[k] = task.scratch()
    return task.run(first, count, scr)


def _dask_warm(task: Any) -> bool:
    task.warm()
    return True


class DaskExecutor:
    """Chunks as Dask tasks on a cluster: a running one (``scheduler``, ``tcp://HOST:PORT``)
    or a ``LocalCluster`` of ``workers`` processes with one thread each (the kernels are
    single-threaded, so one thread per process uses a core without GIL contention).

    Every chunk is a task with an explicit key (job key and chunk index), so a resubmitted
    chunk is recognised, and a worker lost mid-run costs only its chunks, which the
    scheduler re-runs elsewhere. The numba cache is warmed before any worker runs a chunk:
    in this process before a local cluster starts, then on the workers one at a time
    (parallel first writes of the same cache can crash). At most ``window`` chunks are in
    flight (memory stays flat however long the plan). Chunks finish in any order.

    Raises
    ------
    CatchTenError
        ``scheduler: cannot connect`` / ``workers: dask not installed``.
    """

    ordered = False

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 window: int | None = None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise CatchTenError("scheduler" if scheduler else "workers", "dask not installed",
                                'pip install -e ".[cluster]"') from None
        self._cluster: Any = None
        self._warmed: set[str] = set()
        self._pending_local = workers
        self._LocalCluster = LocalCluster
        self._Client = Client
        self._scheduler = scheduler
        self.client: Any = None
        self.window = window
        self.threads = workers or 0

    def describe(self) -> str:
        where = self._scheduler or "LocalCluster"
        n = self.threads or self._pending_local or 0
        return f"Dask {where}, {n} worker thread" + ("s" if n != 1 else "")

    def _connect(self, task: Any) -> None:
        if self.client is not None:
            return
        if self._scheduler:
            probe_scheduler(self._scheduler)
            try:
                self.client = self._Client(self._scheduler, timeout=f"{SCHEDULER_TIMEOUT}s")
            except (MemoryError, Exception) as exc:  # noqa: BLE001 - one line, whatever it is
                raise CatchTenError("scheduler", "cannot connect",
                                    f"{self._scheduler}: {type(exc).__name__}: "
                                    f"{' '.join(str(exc).split())}") from None
        else:
            task.warm()            # this process writes the numba cache before workers start
            _notice(f"starting a local Dask cluster ({self._pending_local} worker"
                    f"{'s' if self._pending_local != 1 else ''}) ...")
            # a Ctrl-C while the cluster starts is held until it has started (then it
            # stops the run as usual, and close() shuts the cluster down): a half-made
            # cluster, or a worker process that is still importing, would print tracebacks
            with sigint_deferred(children=True):
                self._cluster = self._LocalCluster(
                    n_workers=self._pending_local, threads_per_worker=1, processes=True,
                    host="127.0.0.1", dashboard_address=None, silence_logs=50,
                    # the scheduler's HTTP server (health, metrics) starts even without a
                    # dashboard, on 8787 by default: a free port instead, no "in use"
                    # warning
                    scheduler_kwargs={"dashboard": False,
                                      "dashboard_address": "127.0.0.1:0"},
                    preload=[f"{__package__}._dask_worker"])
                self.client = self._Client(self._cluster)
        if self._scheduler:
            self._await_workers(self._scheduler)
        info = self.client.scheduler_info()
        self.threads = sum(w.get("nthreads", 1) for w in info["workers"].values()) or 1

    def _await_workers(self, address: str) -> None:
        """Return once the scheduler has a worker; after :data:`WORKER_NOTICE` seconds
        with none, say once (a notice) that the run waits for one, and go on waiting
        (Ctrl-C stops it)."""
        if self.client.scheduler_info()["workers"]:
            return
        try:
            self.client.wait_for_workers(1, timeout=WORKER_NOTICE)
        except TimeoutError:       # distributed's WorkerStartTimeoutError is one
            _notice(waiting_for_workers_line(address, WORKER_NOTICE))
            self.client.wait_for_workers(1)

    def _warm(self, task: Any) -> None:
        if task.key in self._warmed:
            return
        for addr in list(self.client.scheduler_info()["workers"]):
            self.client.run(_dask_warm, task, workers=[addr])
        self._warmed.add(task.key)

    def map(self, task: Any, chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Any]]:
        from distributed import as_completed
        self._connect(task)
        self._warm(task)
        window = self.window or max(4, 4 * self.threads)
        it = iter(chunks)
        flying: dict[str, tuple[Chunk, Any]] = {}
        ac = as_completed()

        def submit_one() -> bool:
            c = next(it, None)
            if c is None:
                return False
            key = f"catchten-{task.key}-{c.index}"
            fut = self.client.submit(_dask_chunk, task, c.first, c.count, key=key,
                                     pure=False)
            flying[key] = (c, fut)
            ac.add(fut)
            return True

        for _ in range(window):
            if not submit_one():
                break
        try:
            for fut in ac:
                c, _ = flying.pop(fut.key)
                res = fut.result()
                fut.release()
                submit_one()
                yield c, res
        finally:
            if flying:              # interrupted: drop the chunks in flight
                self.client.cancel([f for _, f in flying.values()], force=True)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def check_executor_options(scheduler: str | None = None, workers: int | None = None) -> None:
    """Refuse bad Dask options before anything is made (a run directory included).

    Raises
    ------
    CatchTenError
        ``workers`` out of range, or both ``scheduler`` and ``workers``; ``scheduler``:
        ``bad address``, ``cannot connect``, ``not a Dask scheduler`` (the scheduler is
        asked once, here, so a run that cannot start makes no run directory).
    """
    if scheduler is not None and workers is not None:
        raise CatchTenError("workers", "not with --scheduler",
                            "--workers starts a local cluster; --scheduler uses a running one")
    if workers is not None:
        if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 256:
            raise CatchTenError("workers", "out of range",
                                f"workers={workers!r} (allowed: 1 to 256)")
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise CatchTenError("scheduler", "empty", "give tcp://HOST:PORT")
    if scheduler is not None:
        if not re.fullmatch(r"([a-z0-9+]+://)?\S+:\d+/?", scheduler.strip()):
            raise CatchTenError("scheduler", "bad address",
                                f"{scheduler!r}: give tcp://HOST:PORT")
        try:
            import distributed  # noqa: F401
        except ImportError:
            return                 # make_executor says which extra to install
        # connect now, before a run directory is made for a run that cannot start
        probe_scheduler(scheduler.strip())


def run_batch(executor: Any, task: Any, count: int, first: int = 0) -> None:
    """Items ``first … first+count-1`` of ``task`` as one chunk on a local ``executor``,
    split over its threads, each with its work area (kept by the executor under
    ``task.key``, so the next batch of the same key reuses it): for evaluators called
    batch by batch (advise's rollouts, the double-dummy evaluator). The task writes its
    results where it keeps them (``task.run`` returns nothing to fold); a Ctrl-C is raised
    here once the batch's other threads have stopped."""
    chunks = executor.map(task, [Chunk(0, first, count)])
    try:
        for _ in chunks:
            pass
    finally:
        chunks.close()


def make_executor(threads: int | None = None, scheduler: str | None = None,
                  workers: int | None = None) -> Any:
    """The executor for these options: Dask for ``scheduler`` or ``workers``, else threads
    (inline for one thread).

    Raises
    ------
    CatchTenError
        As :func:`check_executor_options`.
    """
    check_executor_options(scheduler, workers)
    if scheduler or workers:
        return DaskExecutor(scheduler, workers)
    if threads is None:
        threads = max_threads()
    return ThreadExecutor(threads) if threads > 1 else InlineExecutor()


# ---------------------------------------------------------------------------- run directory
def _version() -> str:
    from . import __version__
    return __version__


#: the sources whose code decides a run's numbers, for every kind of run: the kernels, the
#: cards, rules, policies and their tables, the accumulator, and the solvers pimc seats use
#: (paths relative to the package; globs allowed)
ENGINE_SOURCES = ("_kernels/*.py", "cards.py", "rules.py", "policies.py", "tables.py",
                  "aggregate.py", "state.py", "deals.py", "play.py", "determinize.py",
                  "evaluators.py", "pimc.py", "checks.py")
#: and the module of each kind that makes its chunks (its task; a report's runs are
#: simulations with counts from report.py); the chunk plan is in the manifest itself
KIND_SOURCES = {"simulate": ("simulate.py",), "games": ("games.py",),
                "equity": ("games.py", "equity.py"), "match": ("match.py",),
                "report": ("simulate.py", "report.py")}


def engine_fingerprint(kind: str, reduce: str | None = None) -> str:
    """A hash (12 hex digits) of the sources that decide the numbers of a run of ``kind``
    (:data:`ENGINE_SOURCES`, :data:`KIND_SOURCES`; with a ``reduce``, its module too): a run
    directory records it and is refused by a build whose fingerprint differs, since the
    package version does not change with every commit. Any edit of those files (a
    docstring too) changes it: strict by design, chunks of two builds never mix."""
    return _fingerprint(kind, reduce)


@functools.cache
def _fingerprint(kind: str, reduce: str | None) -> str:
    root = Path(__file__).resolve().parent
    names = list(ENGINE_SOURCES) + list(KIND_SOURCES.get(kind, ()))
    if reduce is not None:
        mod = REDUCERS.get(reduce, "").split(":")[0]
        if mod:
            names.append(mod.split(".", 1)[1].replace(".", "/") + ".py")
    files = sorted({f for n in names for f in root.glob(n)})
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(root).as_posix().encode() + b"\0")
        h.update(f.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return h.hexdigest()[:12]


#: the run directory this process last ran chunks in (a Ctrl-C that reaches the command
#: line before any result was printed names it, for ``catchten resume``)
LAST_RUN_DIR: Path | None = None


class RunDir:
    """A run directory: ``manifest.json`` (what the run is) and ``chunks/`` (one Parquet
    file per finished chunk, ``chunk-NNNNNNNN.parquet``, written under a temporary name
    and renamed, so a file that exists is whole). A kill loses only chunks in flight.

    The manifest holds the format, the package version, the engine fingerprint
    (:func:`engine_fingerprint`), the job (``kind`` and its parameters: rules, policies,
    seed, items, chunk) and the plan size. A directory whose manifest differs from the job
    asked for, or from another package version or build of the engine, is refused.

    ``sessions.json`` logs where each session's chunks ran (:meth:`note_session`), for
    ``catchten summarize``; it is not part of the run's identity.

    Each chunk file is a table ``chunk, first, count, i, value`` (int64): the chunk's
    partial result as ``value[i]`` (see the task's ``to_array``), so the directory reads as
    one Parquet dataset (``pandas.read_parquet(DIR / "chunks")``).
    """

    def __init__(self, path: str | Path, manifest: dict[str, Any]) -> None:
        self.path = Path(path)
        self.manifest = manifest
        #: False: :func:`run` folds the chunks there and runs none (``catchten summarize``)
        self.compute = True
        #: chunks this process ran and wrote here (0 after the resume of a finished run)
        self.ran = 0

    # -- creation and opening
    @classmethod
    def create_or_open(cls, path: str | Path | RunDir, job: dict[str, Any]) -> RunDir:
        """Start a run directory for ``job``, or reopen one made for the same job (the run
        then continues where it stopped).

        Raises
        ------
        CatchTenError
            ``run-dir: cannot write`` (read-only, full disk, not a directory),
            ``run-dir: not a run directory`` (a non-empty directory without a manifest),
            ``run-dir: made for another run`` (a different job or package version).
        """
        from .paths import ensure_dir
        want = {"format": RUN_FORMAT, "version": _version(),
                "engine": engine_fingerprint(job["kind"], job.get("reduce")),
                **json.loads(json.dumps(job))}
        if isinstance(path, RunDir):
            opened: RunDir | None = path
            p = path.path
        else:
            opened, p = None, Path(path)
            ensure_dir(p, "run-dir")
        if opened is not None or (p / MANIFEST).exists():
            rd = opened if opened is not None else cls.open(p)
            first = ["kind", "rules", "policies", "seed", "deals", "chunk", "plan"]
            for k in first + sorted((set(want) | set(rd.manifest)) - set(first)):
                if k not in UNCOMPARED and want.get(k) != rd.manifest.get(k):
                    raise CatchTenError("run-dir", "made for another run",
                                        f"{p}: {k} is {rd.manifest.get(k)!r} there, "
                                        f"{want.get(k)!r} here; use another directory")
            moved = {k: want[k] for k in UNCOMPARED - {"created"}
                     if want.get(k) is not None and want[k] != rd.manifest.get(k)}
            if moved:          # the files go elsewhere now: a resume writes them there
                rd.manifest.update(moved)
                rd._atomic_write(p / MANIFEST,
                                 (json.dumps(rd.manifest, indent=2) + "\n").encode())
            return rd
        if any(p.iterdir()):
            raise CatchTenError("run-dir", "not a run directory",
                                f"{p}: not empty and has no {MANIFEST}")
        rd = cls(p, {**want, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
        rd._mkdir(p / CHUNKS)
        rd._atomic_write(p / MANIFEST, (json.dumps(rd.manifest, indent=2) + "\n").encode())
        return rd

    @classmethod
    def open(cls, path: str | Path) -> RunDir:
        """Open an existing run directory (for resume / summarize).

        Raises
        ------
        CatchTenError
            ``run-dir: not a run directory`` (no readable manifest) or ``run-dir: made by
            another version`` (format or package version differ), ``run-dir: made by
            another build of the engine`` (the engine fingerprint differs or is missing).
        """
        p = Path(path)
        try:
            manifest = json.loads((p / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CatchTenError("run-dir", "not a run directory",
                                f"{p}: no {MANIFEST}") from None
        except (OSError, ValueError) as exc:
            raise CatchTenError("run-dir", "not a run directory",
                                f"{p / MANIFEST}: {getattr(exc, 'strerror', None) or exc}"
                                ) from None
        if not isinstance(manifest, dict) or manifest.get("format") != RUN_FORMAT:
            fmt = manifest.get("format") if isinstance(manifest, dict) else None
            raise CatchTenError("run-dir", "not a run directory",
                                f"{p}: format {fmt!r}, expected {RUN_FORMAT}")
        if manifest.get("version") != _version():
            raise CatchTenError("run-dir", "made by another version",
                                f"{p}: catchten_sim {manifest.get('version')}, this is "
                                f"{_version()}; resume it with that version")
        kind = manifest.get("kind")
        here = engine_fingerprint(str(kind), manifest.get("reduce"))
        if manifest.get("engine") != here:
            raise CatchTenError("run-dir", "made by another build of the engine",
                                f"{p}: fingerprint {manifest.get('engine') or 'none'}, this "
                                f"is {here}; its chunks would not mix with this build's")
        return cls(p, manifest)

    # -- one run at a time
    LOCK = ".lock"

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the directory for one run: a second run of it (another process) is refused.
        An advisory ``flock`` on ``DIR/.lock`` (which names the holder's pid): the system
        drops it when the holder dies, so a killed run leaves no stale lock. Without
        ``fcntl`` (Windows) runs are not locked.

        Raises
        ------
        CatchTenError
            ``run-dir: in use`` (another process is running it).
        """
        try:
            import fcntl
        except ImportError:         # pragma: no cover - not on POSIX
            yield
            return
        path = self.path / self.LOCK
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise CatchTenError("run-dir", "cannot write", f"{path}: {exc.strerror}") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
                raise CatchTenError("run-dir", "in use",
                                    f"{self.path}: another run (pid {holder}) is running it; "
                                    "wait for it, or stop it first") from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            global LAST_RUN_DIR
            LAST_RUN_DIR = self.path
            try:
                yield
            finally:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, 0)
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    # -- where the run ran (the manifest is fixed; this log grows with each session)
    SESSIONS = "sessions.json"

    def sessions(self) -> list[dict[str, Any]]:
        """Each session that ran chunks here: ``executor`` (its description), ``chunks``
        (how many it finished), ``items`` (deals, games) and ``compute_s`` (its wall time
        running them, seconds), ``ended`` (time). Empty when unknown (a killed session
        leaves no entry: its chunks are still counted by the files)."""
        try:
            data = json.loads((self.path / self.SESSIONS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return data if isinstance(data, list) else []

    def note_session(self, executor: str, chunks: int, items: int = 0,
                     compute_s: float = 0.0) -> None:
        """Add a session to the log (best effort: a log that cannot be written is skipped,
        the chunks themselves are what count)."""
        entry = {"executor": executor, "chunks": chunks, "items": int(items),
                 "compute_s": round(float(compute_s), 3),
                 "ended": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        with contextlib.suppress(CatchTenError):
            self._atomic_write(self.path / self.SESSIONS,
                               (json.dumps(self.sessions() + [entry], indent=1) + "\n").encode())

    def compute_seconds(self) -> float:
        """The run's own compute time: the sum of the logged sessions' ``compute_s`` (a
        killed session's time is not known, so not counted)."""
        return round(sum(float(e.get("compute_s") or 0) for e in self.sessions()), 3)

    def executors_text(self) -> str:
        """Where the chunks ran, for a summary line: ``threads, 2`` or ``threads, 2; then
        Dask LocalCluster, 2 worker threads`` (``unknown`` without a log)."""
        seen: list[str] = []
        for e in self.sessions():
            if e.get("chunks") and e.get("executor") not in seen:
                seen.append(str(e.get("executor")))
        return "; then ".join(seen) if seen else "unknown (no finished session logged)"

    # -- chunks
    def chunk_path(self, index: int) -> Path:
        return self.path / CHUNKS / f"chunk-{index:08d}.parquet"

    def write_chunk(self, c: Chunk, values: np.ndarray) -> None:
        """Write one finished chunk's partial result (atomically)."""
        import pyarrow as pa
        import pyarrow.parquet as pq
        n = len(values)
        table = pa.table({"chunk": np.full(n, c.index, np.int64),
                          "first": np.full(n, c.first, np.int64),
                          "count": np.full(n, c.count, np.int64),
                          "i": np.arange(n, dtype=np.int64),
                          "value": np.asarray(values, np.int64)})
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd")
        self._atomic_write(self.chunk_path(c.index), sink.getvalue().to_pybytes())

    def chunk_files(self) -> list[Path]:
        """The finished chunks' files (not a killed run's temporary ones)."""
        return sorted((self.path / CHUNKS).glob("chunk-*.parquet"))

    def complete(self) -> bool:
        """True when every chunk of the manifest's plan is there: the run is finished, a
        resume has nothing to run (a match that stopped at a look is finished with fewer:
        False here)."""
        n = (self.manifest.get("plan") or {}).get("chunks")
        return isinstance(n, int) and n > 0 and len(self.chunk_files()) >= n

    def read_chunks(self, edges: np.ndarray) -> dict[int, np.ndarray]:
        """The partial results of the finished chunks by index (checked against the plan;
        leftover temporary files of a killed run are ignored)."""
        import pyarrow.parquet as pq
        out: dict[int, np.ndarray] = {}
        for f in self.chunk_files():
            try:
                t = pq.read_table(f)
                idx = int(f.stem.split("-")[1])
                chunk = t.column("chunk").to_numpy()
                first = t.column("first").to_numpy()
                count = t.column("count").to_numpy()
                order = t.column("i").to_numpy()
                values = t.column("value").to_numpy()
            except Exception as exc:  # noqa: BLE001 - any unreadable file: one line
                raise CatchTenError("run-dir", "unreadable chunk file", f"{f}: {exc}") from None
            ok = (0 <= idx < len(edges) - 1 and len(values) > 0
                  and (chunk == idx).all() and (first == edges[idx]).all()
                  and (count == edges[idx + 1] - edges[idx]).all()
                  and (order == np.arange(len(values))).all())
            if not ok:
                raise CatchTenError("run-dir", "chunk file does not fit the plan", str(f))
            out[idx] = values.astype(np.int64)
        return out

    # -- file plumbing: one clear line for read-only or full disks
    def _mkdir(self, p: Path) -> None:
        try:
            p.mkdir(exist_ok=True)
        except OSError as exc:
            raise CatchTenError("run-dir", "cannot write", f"{p}: {exc.strerror}") from None

    def _atomic_write(self, target: Path, data: bytes) -> None:
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise CatchTenError("run-dir", "cannot write",
                                f"{target}: {exc.strerror or type(exc).__name__}") from None


def open_of_kind(run_dir: str | Path | RunDir, kinds: tuple[str, ...], what: str,
                 parse: Callable[[dict[str, Any]], Any]) -> tuple[RunDir, Any]:
    """A run directory of one of ``kinds`` (or an opened one) and ``parse(manifest)``: the
    arguments of the call that made it. ``manifest["rules"]`` can be read with
    :func:`manifest_rules`.

    Raises
    ------
    CatchTenError
        As :meth:`RunDir.open`; ``run-dir: not WHAT`` (another kind); ``run-dir: bad
        manifest`` (``parse`` met a missing or ill-typed field).
    """
    rd = run_dir if isinstance(run_dir, RunDir) else RunDir.open(run_dir)
    m = rd.manifest
    if m.get("kind") not in kinds:
        hint = (f"; read it with: catchten summarize {rd.path} (catchten resume {rd.path} "
                "finishes it if it is not finished)") if m.get("kind") in KINDS else ""
        raise CatchTenError("run-dir", f"not {what}",
                            f"{rd.path}: kind {m.get('kind')!r}{hint}")
    try:
        return rd, parse(m)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise CatchTenError("run-dir", "bad manifest", f"{rd.path}: {exc!r}") from None


def manifest_rules(m: dict[str, Any]) -> Any:
    """The :class:`~catchten_sim.rules.Rules` of a manifest."""
    from .rules import Rules
    r = m["rules"]
    return Rules(r["preset"], r["players"], r["variants"])


#: the ``reduce`` counts a run directory can name (``module:class``, built from the rules)
REDUCERS = {"ten_by_side": "catchten_sim.report:TenBySide"}


#: the module whose ``from_run_dir(run_dir, **options)`` finishes (or, with
#: ``run_dir.compute`` false, summarizes) each kind of run directory
KINDS = {"simulate": "simulate", "games": "games", "equity": "equity", "match": "match",
         "report": "report"}


def open_any(path: str | Path, compute: bool = True) -> tuple[RunDir, Callable[..., Any]]:
    """A run directory of any kind and the ``from_run_dir`` that finishes it.

    Raises
    ------
    CatchTenError
        As :meth:`RunDir.open`; ``run-dir: unknown kind``.
    """
    import importlib
    rd = RunDir.open(path)
    rd.compute = compute
    kind = rd.manifest.get("kind")
    if kind not in KINDS:
        raise CatchTenError("run-dir", "unknown kind", f"{rd.path}: kind {kind!r}")
    mod = importlib.import_module(f"{__package__}.{KINDS[kind]}")
    return rd, mod.from_run_dir


def job_key(job: dict[str, Any]) -> str:
    """A short stable hash of a job's description (Dask task keys, scratch cache)."""
    blob = json.dumps({"version": _version(), **job}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------- time limits
class TimeLimit:
    """A deadline set by :func:`time_limit` (``at``, in ``time.perf_counter()`` seconds);
    ``hit`` once a run inside the block ended for it."""

    def __init__(self, seconds: float) -> None:
        self.at = time.perf_counter() + float(seconds)
        self.hit = False


_LIMITS: list[TimeLimit] = []          # the open time_limit blocks


def check_seconds(seconds: Any, field: str = "time") -> float:
    """A time limit: a positive finite number of seconds.

    Raises
    ------
    CatchTenError
        ``time: out of range``.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not 0 < seconds < float("inf"):
        raise CatchTenError(field, "out of range", f"{field}={seconds!r} (seconds > 0)")
    return float(seconds)


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[TimeLimit | None]:
    """Within the block, every :func:`run` ends after the first chunk that finishes
    ``seconds`` or more from now (None: no limit, yields None). The chunks finished are
    folded and, in a run directory, written: the run stays resumable. Every run runs at
    least one chunk (a resume with a time limit always moves on). Yields the
    :class:`TimeLimit` (``hit``: some run ended for it).

    Raises
    ------
    CatchTenError
        ``time: out of range`` (not a positive finite number of seconds).
    """
    if seconds is None:
        yield None
        return
    lim = TimeLimit(check_seconds(seconds))
    _LIMITS.append(lim)
    try:
        yield lim
    finally:
        _LIMITS.remove(lim)


def _past_deadline() -> bool:
    """True when an open :func:`time_limit` block's deadline has passed (marked hit)."""
    now = time.perf_counter()
    hit = False
    for lim in _LIMITS:
        if now >= lim.at:
            lim.hit = hit = True
    return hit


# ---------------------------------------------------------------------------- the fold
@dataclass
class RunOutcome:
    """How a run went: chunks done (by index), items done, whether it was interrupted."""

    done: set[int] = field(default_factory=set)
    items: int = 0
    interrupted: bool = False
    elapsed_s: float = 0.0
    threads: int = 1
    #: seconds of ``elapsed_s`` this process spent compiling numba kernels (a cold cache)
    compile_s: float = 0.0


def run(task: Any, edges: np.ndarray, executor: Any, fold: Any, *,
        run_dir: RunDir | None = None, progress: Any = None, stop: Any = None) -> RunOutcome:
    """Run ``task`` over the chunk plan ``edges`` on ``executor``; ``fold(chunk, partial)``
    gets every finished chunk (chunks already in ``run_dir`` first, without re-running).

    The interrupt handling of every job: a Ctrl-C stops the run between chunks; a chunk is
    folded and written whole or not at all; the outcome says ``interrupted`` and which
    chunks are done. ``progress(done_items, total_items)`` after every chunk; ``stop()``
    true after a chunk ends the run there (a deadline; not ``interrupted``), and so does
    the deadline of an enclosing :func:`time_limit` block.

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C before any chunk was done.
    CatchTenError
        Run directory errors (one line).
    """
    from .compile_notice import Stopwatch
    clock = Stopwatch()
    total = int(edges[-1])
    out = RunOutcome()
    if run_dir is not None:
        for idx, arr in sorted(run_dir.read_chunks(edges).items()):
            c = Chunk(idx, int(edges[idx]), int(edges[idx + 1] - edges[idx]))
            fold(c, task.from_array(arr))
            out.done.add(idx)
            out.items += c.count
    if progress is not None and out.items:
        progress(out.items, total)
    out.threads = executor.threads
    if run_dir is not None and not run_dir.compute:
        # a summary: the times are the run's own (its sessions'), never the read's
        out.elapsed_s = run_dir.compute_seconds()
        return out
    if stop is not None and out.done and stop():
        out.elapsed_s = clock.elapsed()
        return out
    todo = [i for i in range(len(edges) - 1) if i not in out.done]
    if not todo:              # finished: no executor is started (no cluster, no threads)
        out.elapsed_s = clock.elapsed()
        return out
    with run_dir.locked() if run_dir is not None else contextlib.nullcontext():
        _run_chunks(task, edges, executor, fold, out, todo, run_dir, progress, stop)
    out.elapsed_s = clock.elapsed()
    out.compile_s = clock.compile_s(out.elapsed_s)
    out.threads = executor.threads
    return out


def _run_chunks(task: Any, edges: np.ndarray, executor: Any, fold: Any, out: RunOutcome,
                todo: list[int], run_dir: RunDir | None, progress: Any, stop: Any) -> None:
    """The chunks of ``todo`` on ``executor``, folded into ``out`` (:func:`run`)."""
    total = int(edges[-1])
    chunks = executor.map(task, plan_chunks(edges, todo))
    before, items_before, began = len(out.done), out.items, time.perf_counter()
    try:
        for c, partial in chunks:
            with sigint_deferred():
                if run_dir is not None:
                    run_dir.write_chunk(c, task.to_array(partial))
                    run_dir.ran += 1
                fold(c, partial)
                out.done.add(c.index)
                out.items += c.count
            if progress is not None:
                progress(out.items, total)
            # (a time_limit deadline is looked at after a chunk of this session: a
            # resume with a time limit always moves on)
            if (stop is not None and stop()) or _past_deadline():
                break
    except KeyboardInterrupt:
        out.interrupted = True
        if not out.done:
            raise
    finally:
        chunks.close()
        if run_dir is not None and len(out.done) > before:
            run_dir.note_session(executor.describe(), len(out.done) - before,
                                 out.items - items_before, time.perf_counter() - began)
