"""The run engine: executors (inline, threads, Dask), the thread-split loop, time limits
and :func:`run`, the one loop that folds a job's chunks (:mod:`catchten_sim.run`)."""
from __future__ import annotations

import contextlib
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..checks import check_count, check_number
from ..errors import CatchTenError
from .dirs import RunDir
from .plan import Chunk, plan_chunks


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


#: Ctrl-Cs this command has had (the command line counts them from its start: the first
#: stops the work and prints what finished; a second exits at once, :func:`on_interrupt`)
INTERRUPTS = [0]
#: the line a second Ctrl-C exits with
SECOND_INTERRUPT = ("error: interrupted again (second Ctrl-C): exiting at once, without "
                    "the finished work")


def on_interrupt() -> None:
    """Count a Ctrl-C; at the second one, exit at once (status 130) with
    :data:`SECOND_INTERRUPT`, whatever the first is still waiting for (a chunk in flight,
    a kernel, a file being written)."""
    import os
    import sys
    INTERRUPTS[0] += 1
    if INTERRUPTS[0] >= 2:
        try:
            sys.stdout.flush()
            sys.stderr.write(SECOND_INTERRUPT + "\n")
            sys.stderr.flush()
        finally:
            os._exit(130)


def interruptible(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` (a kernel that releases the GIL, e.g. a dynamic program) run in a
    thread of its own while the calling thread waits in short steps, so that a Ctrl-C
    acts within a tenth of a second instead of when the kernel returns (the abandoned
    thread is a daemon: the process does not wait for it)."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    out: list[Any] = []
    err: list[BaseException] = []

    def work() -> None:
        try:
            out.append(fn(*args))
        except BaseException as exc:   # handed to the caller
            err.append(exc)

    t = threading.Thread(target=work, name="catchten-kernel", daemon=True)
    t.start()
    while t.is_alive():
        t.join(0.05)
    if err:
        raise err[0]
    return out[0]


@contextlib.contextmanager
def sigint_deferred(children: bool = False) -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) that arrives inside the block until the block ends, then
    raise KeyboardInterrupt (a chunk is folded and written whole or not at all). Outside
    the main thread (where handlers cannot be set) the block runs as is.

    ``children``: also block SIGINT in this thread for the block, so that the threads
    started inside inherit the block, and so do the processes they start (a blocked signal
    stays blocked across fork and exec): a local Dask cluster's worker processes never see
    the terminal's Ctrl-C, not even while they import, before their preload can ignore it
    (:mod:`catchten_sim._dask_worker`). A Ctrl-C pending at the end is held like any other;
    a second Ctrl-C exits at once (:func:`on_interrupt`).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[object] = []
    try:
        def held(*a: object) -> None:
            caught.append(a)
            on_interrupt()

        old = signal.signal(signal.SIGINT, held)
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


#: a notice of the library's own (the equity cache's file): to the command's stderr
notice = _notice


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
                    preload=["catchten_sim._dask_worker"])
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
        check_count("workers", workers, 1, 256)
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
        from ..checks import max_threads
        threads = max_threads()
    return ThreadExecutor(threads) if threads > 1 else InlineExecutor()


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
        ``time: not a number`` or ``time: out of range``.
    """
    return check_number(field, seconds, 0, what="seconds")


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
    from ..compile_notice import Stopwatch
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
