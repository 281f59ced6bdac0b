"""Finishing a run directory of any kind (``catchten resume``): which runs stop for time by
their own rules, when a run is already finished, and reading a finished one as a summary.
The command line prints; this module decides what runs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from .dirs import RunDir
from .engine import time_limit as limit_runs

#: a match's stops that end it (a resume has nothing left to run)
FINISHED_MATCH = ("separated", "precision", "deals")
#: the kinds that stop for time by their own rules (a match's stop "time"; the equity
#: table's simulation at 0.4 of it); the others stop at the run engine's deadline
NATIVE_TIME = ("match", "equity")


@dataclass
class Resumed:
    """What a resume did: ``result`` (the kind's result), ``done`` (the run was finished
    already, so nothing ran and the result is read as ``summarize`` reads it) and
    ``timed_out`` (a run that stopped at the resume's time limit)."""

    result: Any
    done: bool
    timed_out: bool = False


def resume_run(rd: RunDir, finish: Callable[..., Any], *, done: bool,
               time_limit: float | None = None, progress: Any = None,
               **executor: Any) -> Resumed:
    """Finish the run in ``rd`` with ``finish`` (its kind's ``from_run_dir``, as
    :func:`~catchten_sim.run.open_any` returns it): only the chunks not yet written run,
    on ``executor`` (threads, scheduler, workers). ``done``: the run is complete
    (``rd.complete()``, asked by the caller before it starts a progress bar), then it is
    read without running anything. A match that had stopped at a look before its last
    chunk is finished too, and read again as such."""
    kind = rd.manifest["kind"]
    opts = dict(executor)
    native = kind in NATIVE_TIME
    if native and time_limit is not None:
        opts["time_limit"] = time_limit
    lim = None
    if done:
        rd.compute = False
        res = finish(rd)
    else:
        with limit_runs(None if native else time_limit) as lim:
            res = finish(rd, progress=progress, **opts)
    if not done and kind == "match" and rd.ran == 0 and res.stop in FINISHED_MATCH:
        done = True                  # it had stopped at a look before its last chunk
        rd.compute = False
        res = finish(rd)
    return Resumed(res, done, lim is not None and lim.hit)
