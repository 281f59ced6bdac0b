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

Run directories (:class:`RunDir`, :mod:`.dirs`) hold one kind of job each: ``simulate``, ``games``,
``equity``, ``match``, ``report`` (:data:`KINDS`: the module whose ``from_run_dir``
finishes or summarizes it; :func:`open_any` opens any of them for ``catchten resume`` /
``catchten summarize``).

The thread-split loop is written once too (:func:`run_parallel`): every entry kernel
releases the GIL and draws its random numbers from streams keyed by the item's number (a
deal, a game, a sample), so the split never changes the result. (A numba ``prange`` loop
would do the same, but compiling it with the inlined heuristic costs ~25 s more per cold
start.)

The package's rooms: :mod:`.plan` (the chunk plan, a job's key), :mod:`.engine` (the
executors, time limits, :func:`run`), :mod:`.dirs` (run directories, the engine
fingerprint, opening any kind), :mod:`.resume` (finishing a run directory of any kind).
Every public name is importable from here, except the state that changes while a process
runs: read ``dirs.LAST_RUN_DIR`` and patch ``engine.SCHEDULER_TIMEOUT`` /
``engine.WORKER_NOTICE`` in their own modules.
"""
from __future__ import annotations

from .plan import (  # noqa: F401
    Chunk,
    chunk_plan,
    FIRST_MARK,
    job_key,
    plan_chunks,
    plan_rule,
)
from .dirs import (  # noqa: F401
    CHUNKS,
    engine_fingerprint,
    ENGINE_SOURCES,
    KIND_SOURCES,
    KINDS,
    MANIFEST,
    manifest_rules,
    REDUCERS,
    open_any,
    open_of_kind,
    RUN_FORMAT,
    RunDir,
    UNCOMPARED,
)
from .engine import (  # noqa: F401
    check_executor_options,
    check_seconds,
    DaskExecutor,
    InlineExecutor,
    interruptible,
    make_executor,
    NoRun,
    notice,
    notices,
    on_interrupt,
    probe_scheduler,
    run,
    run_batch,
    run_parallel,
    RunOutcome,
    SCHEDULER_TIMEOUT,
    sigint_deferred,
    split_range,
    ThreadExecutor,
    time_limit,
    TimeLimit,
    waiting_for_workers_line,
    WORKER_NOTICE,
)
from .resume import (  # noqa: F401
    FINISHED_MATCH,
    NATIVE_TIME,
    resume_run,
    Resumed,
)
