"""The old name of the run engine, :mod:`catchten_sim.run` (plan, engine, dirs): kept for
the modules and scripts that still write ``from catchten_sim import runner``; new code
imports :mod:`catchten_sim.run`."""
from __future__ import annotations

from typing import Any

from .run import dirs as _dirs

from .run.plan import (  # noqa: F401
    Chunk,
    chunk_plan,
    FIRST_MARK,
    job_key,
    plan_chunks,
    plan_rule,
)
from .run.dirs import (  # noqa: F401
    CHUNKS,
    engine_fingerprint,
    ENGINE_SOURCES,
    KIND_SOURCES,
    KINDS,
    MANIFEST,
    manifest_rules,
    open_any,
    open_of_kind,
    RUN_FORMAT,
    RunDir,
    UNCOMPARED,
)
from .run.engine import (  # noqa: F401
    check_executor_options,
    check_seconds,
    DaskExecutor,
    InlineExecutor,
    make_executor,
    NoRun,
    notices,
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


def __getattr__(name: str) -> Any:
    """``LAST_RUN_DIR``, read where it changes (:mod:`catchten_sim.run.dirs`)."""
    if name == "LAST_RUN_DIR":
        return _dirs.LAST_RUN_DIR
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
