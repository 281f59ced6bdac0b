"""Long work off the server's event loop: a pool of worker processes, a bounded queue in
front of it, progress streamed back, cancel and a time limit.

Each worker is a process (numba kernels hold the CPU; a process can be interrupted and, as
a last resort, killed and replaced) that warms the page's kernels when it starts. A job is
sent to a free worker; beyond the workers, jobs wait in a queue of ``queue`` places; beyond
that :meth:`Pool.submit` raises :class:`Busy` (the server answers 503). Cancel sends the
worker SIGINT: an advice run returns what it finished (``partial``), as on a Ctrl-C of the
CLI. A job running past its time limit is interrupted the same way, and a worker that does
not stop is killed and replaced. Its time, as the job's own limit counts it, leaves out
the engine's one-time compile on a cold numba cache: the worker says when it compiles.
"""
from __future__ import annotations

import asyncio
import itertools
import multiprocessing as mp
import os
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

#: seconds a job may run beyond its own time limit before it is interrupted; both leave out
#: the engine's one-time compile on a cold cache (the advice's own --time does:
#: compile_notice.Stopwatch; the worker says when it compiles, :class:`_CompileTell`)
GRACE_S = 90.0
#: the most compiling seconds left out of a job's time (the slowest cold compile seen,
#: 158 s at load 4.5, docs/speed.md, four times over): the watchdog still ends a job whose
#: compile never ends
MAX_COMPILE_S = 600.0
#: seconds an interrupted worker gets to stop before it is killed and replaced
KILL_AFTER_S = 10.0
#: least seconds between two progress messages of one job
PROGRESS_EVERY_S = 0.1
#: seconds an interrupted worker gets to stop when the server stops (Ctrl-C) before it is
#: killed: the server's own stop must be prompt
STOP_KILL_S = 2.0


#: the kinds of a job's last event
FINAL = ("result", "error", "cancelled")
#: the exit status of a job stopped with the server (a Ctrl-C's 130; HTTP 503)
STOPPED_STATUS = 130


class Busy(Exception):
    """The queue is full (HTTP 503)."""


# ---------------------------------------------------------------------------- the worker
def _warm(send) -> None:
    """Compile (or load from numba's cache) the kernels the page uses: an advice with
    rollouts and with dd, a solve and a deal, each on a tiny sample."""
    from .api import advise_json, deal_json, solve_json
    pos = {"rules": "foster", "players": 4, "dealer": 3, "seat": 0,
           "hand": ["JS", "AS", "9S", "KH", "QH", "7D", "8C", "9C", "TC"],
           "turnup": "7S", "play": []}
    steps = [("rollouts", lambda: advise_json({"position": pos, "options": {
                 "samples": 64, "time": 20}})),
             ("double-dummy advice", lambda: advise_json({"position": pos, "options": {
                 "evaluator": "dd", "samples": 2, "exact_max": 0, "time": 20}})),
             ("deal", lambda: deal_json({"seed": 1})),
             ("solver", lambda: solve_json({"record": {**deal_json({"seed": 1}),
                                                       "play": []}}))]
    for i, (name, fn) in enumerate(steps):
        send(("state", "warming", f"{name} ({i + 1} of {len(steps)})"))
        fn()


def _run(kind: str, body: Any, limit: float, progress, running) -> Any:
    from . import api
    if kind == "advise":
        return api.advise_json(body, progress=progress, threads=_THREADS, running=running)
    if kind == "solve":
        return api.solve_json(body, time_limit=limit)
    if kind == "deal":
        return api.deal_json(body)
    if kind == "simulate":
        return api.simulate_json(body, progress=progress, threads=_THREADS)
    raise ValueError(kind)


_THREADS: int | None = None


def _callbacks(send, job_id: int):
    """``(progress, running)`` of one job: ``progress(done, total)`` sends a message at
    most every ``PROGRESS_EVERY_S`` seconds, and the last one; ``running(done, means)`` an
    advice's values so far."""
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY_S or done >= total:
            last[0] = now
            send(("progress", job_id, int(done), int(total)))

    def running(done: int, means: dict[str, float]) -> None:
        # an advice's values so far, after each batch (batches double: a few messages)
        send(("running", job_id, int(done), {k: round(float(v), 4)
                                             for k, v in means.items()}))
    return progress, running


def _compile_tell(send):
    """A numba ``numba:compile`` listener that sends ``("compiling", job, True)`` when
    this worker starts compiling kernels for a job (a cold cache: numba says nothing on a
    cache hit) and ``("compiling", job, False)`` when it is done (nested and concurrent
    compiles once, as :func:`catchten_sim.compile_notice.compile_seconds` counts them);
    its ``job`` attribute is the job running (None: none, nothing is sent)."""
    from numba.core import event

    class _CompileTell(event.Listener):
        def __init__(self) -> None:
            self.job: int | None = None
            self.depth = 0
            self.lock = threading.Lock()

        def _tell(self, step: int) -> None:
            with self.lock:
                self.depth = max(0, self.depth + step)
                edge = self.depth == (1 if step > 0 else 0)
                job = self.job
            if edge and job is not None:
                try:
                    send(("compiling", job, step > 0))
                except (OSError, ValueError):
                    pass

        def on_start(self, event) -> None:
            self._tell(1)

        def on_end(self, event) -> None:
            self._tell(-1)
    tell = _CompileTell()
    event.register("numba:compile", tell)
    return tell


def worker_main(conn, threads: int | None, warm: bool) -> None:
    """A worker process: warm, then run the jobs ``conn`` brings, one at a time."""
    global _THREADS
    _THREADS = threads
    try:
        os.setpgrp()        # a Ctrl-C at the terminal goes to the server, which stops us
    except OSError:
        pass
    busy = [False]

    def on_int(signum, frame):          # SIGINT interrupts a job, never the idle loop
        if busy[0]:
            raise KeyboardInterrupt
    signal.signal(signal.SIGINT, on_int)
    from ..errors import CatchTenError
    from .api import page_error
    from ..run import engine
    lock = threading.Lock()

    def send(msg: tuple) -> None:       # (a kernel may compile in another thread)
        with lock:
            conn.send(msg)
    tell = _compile_tell(send)
    if warm:
        try:
            _warm(send)
        except Exception as exc:        # the page still works, only slower
            send(("state", "warm failed", f"{type(exc).__name__}: {exc}"))
    send(("state", "ready", ""))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        if msg is None:
            return
        job_id, kind, body, limit = msg
        engine.INTERRUPTS[0] = 0     # a cancel counts within its job (a second one exits)
        busy[0] = True
        tell.job = job_id
        try:
            out = _run(kind, body, limit, *_callbacks(send, job_id))
            busy[0] = False
            reply: tuple = ("result", job_id, out)
        except KeyboardInterrupt:
            busy[0] = False
            reply = ("cancelled", job_id)
        except CatchTenError as exc:
            busy[0] = False
            exc = page_error(exc)
            reply = ("error", job_id, exc.exit_status, exc.line(), exc.field, exc.why)
        except Exception as exc:    # a bug: one line, as the CLI says it
            busy[0] = False
            line = " ".join(f"internal error: {type(exc).__name__}: {exc} "
                            "(please report it)".split())
            reply = ("error", job_id, 3, line, None, "internal error")
        finally:
            busy[0] = False
            tell.job = None
        try:
            send(reply)
        except (OSError, ValueError):
            return


# ---------------------------------------------------------------------------- the server side
@dataclass
class Job:
    """One request's work: ``events`` yields ``("started",)`` when a worker takes it (until
    then it waits in the queue), ``("progress", done, total)`` (an advice also
    ``("running", done, {card: mean})``) and then one final event, ``("result", data)``,
    ``("error", status, line, field, why)`` or ``("cancelled",)``."""

    id: int
    kind: str
    body: Any
    time_limit: float
    events: asyncio.Queue = field(default_factory=asyncio.Queue)
    final: tuple | None = None
    cancelled: bool = False
    worker: Any = None
    started: float | None = None
    #: stopped by the watchdog (past its time limit), not by its client
    timed_out: bool = False
    #: stopped because the server stops (Ctrl-C)
    stopped: bool = False
    #: seconds its worker spent compiling the engine's kernels (a cold cache), and when a
    #: compile under way began (``time.monotonic()``; None: none)
    compile_s: float = 0.0
    compiling_since: float | None = None

    def working(self, now: float) -> float:
        """Seconds since a worker took the job, less those the worker spent compiling (at
        most :data:`MAX_COMPILE_S`): what its time limit counts, as the job's own limit
        (``advise --time``) leaves the compile out."""
        if self.started is None:
            return 0.0
        busy = 0.0 if self.compiling_since is None else now - self.compiling_since
        return now - self.started - min(self.compile_s + busy, MAX_COMPILE_S)

    def finish(self, event: tuple) -> None:
        if self.final is None:
            if event[0] == "cancelled" and self.timed_out:
                event = ("error", 5, f"time: past the limit ({self.time_limit:g} s of work "
                         f"and {GRACE_S:g} s more): ask for fewer samples or less time",
                         "time", "past the limit")
            elif event[0] == "cancelled" and self.stopped:
                event = ("error", STOPPED_STATUS, "stopped: the server was stopped (Ctrl-C) "
                         "before this finished; start it again and ask again", None,
                         "server stopped")
            self.final = event
            self.events.put_nowait(event)

    def cancel(self) -> None:
        """Stop the job: dropped from the queue, or its worker interrupted."""
        if self.final is not None or self.cancelled:
            return
        self.cancelled = True
        if self.worker is None:
            self.finish(("cancelled",))
        else:
            self.worker.interrupt()

    async def result(self) -> tuple:
        """The final event (started, progress and running values are skipped)."""
        while True:
            ev = await self.events.get()
            if ev[0] in FINAL:
                return ev


class _Worker:
    def __init__(self, pool: Pool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.state = "starting"
        self.detail = ""
        self.job: Job | None = None
        self.ready = asyncio.Event()
        self.proc: Any = None
        self.conn: Any = None
        self.interrupted_at: float | None = None

    def spawn(self) -> None:
        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=worker_main, args=(child, self.pool.threads,
                                                          self.pool.warm),
                                name=f"catchten-serve-worker-{self.index}", daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent
        self.state, self.detail = "starting", ""
        self.ready.clear()
        asyncio.get_running_loop().add_reader(parent.fileno(), self._readable)

    def _readable(self) -> None:
        try:
            while self.conn.poll():
                self._on(self.conn.recv())
        except (EOFError, OSError):
            self._died()

    def _on(self, msg: tuple) -> None:
        kind = msg[0]
        if kind == "state":
            self.state, self.detail = msg[1], msg[2]
            if msg[1] in ("ready", "warm failed"):
                self.state = "ready"
                self.ready.set()
            return
        job = self.job
        if job is None or msg[1] != job.id:
            return
        if kind in ("progress", "running"):
            job.events.put_nowait((kind, msg[2], msg[3]))
            return
        if kind == "compiling":         # left out of its time (Job.working)
            now = time.monotonic()
            if msg[2] and job.compiling_since is None:
                job.compiling_since = now
            elif not msg[2] and job.compiling_since is not None:
                job.compile_s += now - job.compiling_since
                job.compiling_since = None
            return
        if kind == "result":
            job.finish(("result", msg[2]))
        elif kind == "cancelled":
            job.finish(("cancelled",))
        else:
            job.finish(("error",) + tuple(msg[2:]))
        self.job = None
        self.interrupted_at = None
        self.pool._job_done()

    def _died(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            loop.remove_reader(self.conn.fileno())
        except (ValueError, OSError):
            pass
        job, self.job = self.job, None
        if job is not None:
            job.finish(("cancelled",) if job.cancelled else
                       ("error", 3, "internal error: the worker process stopped "
                        "(please report it)", None, "internal error"))
            self.pool._job_done()
        self.state = "stopped"
        self.ready.clear()
        # the new process was never interrupted: an old job's time would have it killed
        # again as soon as it took the next job (every job after a killed one failed)
        self.interrupted_at = None
        if not self.pool.closing:
            self.spawn()

    def send(self, job: Job) -> None:
        self.job = job
        job.worker = self
        job.started = time.monotonic()
        job.events.put_nowait(("started",))
        self.conn.send((job.id, job.kind, job.body, job.time_limit))

    def interrupt(self) -> None:
        if self.proc is not None and self.proc.pid and self.interrupted_at is None:
            self.interrupted_at = time.monotonic()
            try:
                os.kill(self.proc.pid, signal.SIGINT)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.proc.kill()


class Pool:
    """``workers`` worker processes (each running numba with ``threads`` threads) behind
    a queue of ``queue`` places."""

    def __init__(self, workers: int = 2, queue: int = 8, threads: int | None = None,
                 warm: bool = True) -> None:
        self.n_workers = max(1, int(workers))
        self.queue_size = max(0, int(queue))
        self.threads = threads
        self.warm = warm
        self.closing = False
        #: the server stops: no job is taken any more
        self.stopping = False
        self.workers: list[_Worker] = []
        self.waiting: list[Job] = []
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task] = []
        self._wake: asyncio.Event | None = None
        self.served = 0

    async def start(self) -> None:
        self._wake = asyncio.Event()
        for i in range(self.n_workers):
            w = _Worker(self, i)
            w.spawn()
            self.workers.append(w)
        self._tasks = [asyncio.create_task(self._dispatch()),
                       asyncio.create_task(self._watchdog())]

    def submit(self, kind: str, body: Any, time_limit: float) -> Job:
        """Queue a job. Raises :class:`Busy` when every worker is busy and the queue full,
        or the server stops."""
        if self.stopping:
            raise Busy("the server is stopping")
        self.waiting = [j for j in self.waiting if j.final is None]
        free = sum(1 for w in self.workers if w.job is None)
        if len(self.waiting) >= self.queue_size + free:
            raise Busy(f"the server is busy: {self.running()} running and "
                       f"{len(self.waiting)} waiting (at most {self.queue_size}); "
                       "try again in a moment")
        job = Job(next(self._ids), kind, body, time_limit)
        self.waiting.append(job)
        assert self._wake is not None
        self._wake.set()
        return job

    def ahead(self, job: Job) -> int:
        """Jobs waiting before ``job`` in the queue (0 also once it has started)."""
        live = [j for j in self.waiting if j.final is None]
        return live.index(job) if job in live else 0

    def job_state(self, job: Job) -> str:
        """``waiting`` while ``job`` waits in the queue with no worker free to take it
        (every worker busy or still warming up), else ``starting`` (a worker is taking
        it, or has taken it)."""
        if job.worker is not None or job.final is not None:
            return "starting"
        free = any(w.job is None and w.ready.is_set() for w in self.workers)
        return "starting" if free and self.ahead(job) == 0 else "waiting"

    def running(self) -> int:
        return sum(1 for w in self.workers if w.job is not None)

    def _job_done(self) -> None:
        self.served += 1
        if self._wake is not None:
            self._wake.set()

    async def _dispatch(self) -> None:
        assert self._wake is not None
        while not self.closing:
            await self._wake.wait()
            self._wake.clear()
            for w in self.workers:
                if not self.waiting:
                    break
                if w.job is None and w.ready.is_set():
                    job = self.waiting.pop(0)
                    while job.final is not None and self.waiting:
                        job = self.waiting.pop(0)
                    if job.final is None:
                        w.send(job)
            if self.waiting and not any(w.ready.is_set() for w in self.workers):
                # warming: look again when a worker says it is ready
                await asyncio.wait([asyncio.create_task(w.ready.wait())
                                    for w in self.workers],
                                   return_when=asyncio.FIRST_COMPLETED)
                self._wake.set()

    async def _watchdog(self) -> None:
        while not self.closing:
            await asyncio.sleep(0.5)
            now = time.monotonic()
            for w in self.workers:
                job = w.job
                if w.state == "ready" and not w.ready.is_set():
                    w.ready.set()
                if job is None or job.started is None:
                    continue
                if w.interrupted_at is None and job.working(now) > job.time_limit + GRACE_S:
                    job.cancelled = job.timed_out = True
                    w.interrupt()
                elif w.interrupted_at is not None and now - w.interrupted_at > KILL_AFTER_S:
                    w.kill()            # its pipe closes: _died replaces it
            if self._wake is not None and self.waiting:
                self._wake.set()

    def status(self) -> dict:
        states = [w.state for w in self.workers]
        return {"workers": [{"state": w.state, "detail": w.detail,
                             "busy": w.job is not None} for w in self.workers],
                "ready": sum(1 for s in states if s == "ready"),
                "warming": any(s in ("starting", "warming") for s in states),
                "running": self.running(),
                "waiting": len([j for j in self.waiting if j.final is None]),
                "queue": self.queue_size, "served": self.served}

    async def stop_jobs(self) -> dict[str, int]:
        """The server stops (Ctrl-C): cancel every job, waiting or running, and wait until
        each has its final event (an interrupted advice returns what it finished, the
        others end with a "stopped" error), killing a worker that has not stopped within
        ``STOP_KILL_S``. Returns the jobs cancelled by kind (``{"advise": 1}``)."""
        self.stopping = True
        jobs = [j for j in self.waiting if j.final is None]
        jobs += [w.job for w in self.workers if w.job is not None and w.job.final is None]
        self.waiting = []
        counts: dict[str, int] = {}
        for job in jobs:
            counts[job.kind] = counts.get(job.kind, 0) + 1
            job.stopped = True
            job.cancel()
        deadline = time.monotonic() + STOP_KILL_S
        while any(j.final is None for j in jobs):
            if time.monotonic() > deadline:
                self.closing = True             # a killed worker is not replaced
                for w in self.workers:
                    if w.job is not None and w.job.final is None:
                        w.kill()
                        w.proc.join(1)
                        w._died()
                break
            await asyncio.sleep(0.02)
        return counts

    async def close(self) -> None:
        self.closing = True
        for t in self._tasks:
            t.cancel()
        for j in self.waiting:
            j.finish(("cancelled",))
        loop = asyncio.get_running_loop()
        for w in self.workers:
            if w.job is not None:
                w.job.cancel()
            try:
                loop.remove_reader(w.conn.fileno())
                w.conn.send(None)
            except (OSError, ValueError):
                pass
        deadline = time.monotonic() + 3
        for w in self.workers:
            while w.proc.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            if w.proc.is_alive():
                w.proc.kill()
            w.proc.join(1)
            w.conn.close()
