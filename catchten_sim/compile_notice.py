"""Say on stderr that the engine is compiling, when it is.

The numba kernels are compiled on first use and cached on disk (``cache=True``); a cold
cache (first run, a new numba or package version, a wiped ``__pycache__``) costs seconds of
silence. numba broadcasts a ``numba:compile`` event only when a kernel is really compiled
(a cache hit loads without it), so listening to it is exact and costs nothing when the
cache is warm. With ``NUMBA_DISABLE_JIT=1`` nothing compiles and nothing is said.

Usage::

    with compile_notice(lambda msg: print(msg, file=sys.stderr)):
        simulate(...)
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from collections.abc import Callable, Iterator

from numba.core import event as _event

__all__ = ["Stopwatch", "compile_notice", "compile_seconds", "compiling_note", "notice_text",
           "COMPILE_SECONDS", "WHAT"]

#: cold compile time of each entry kernel (seconds, measured on a 2-core machine with
#: ``NUMBA_CACHE_DIR`` pointing at an empty directory), by the kernel's function name;
#: a kernel compiled with others (the advice sampler and rollout) is counted with its group
COMPILE_SECONDS: dict[str, float] = {
    "solve_batch": 35.0,        # solve, advise --evaluator dd, pimc (idle: 35 s wall, 35 s
                                # of CPU; 47 s wall at load average 3)
    "_run_policies": 13.0,      # simulate, report (any policy but all-random)
    "_run_random": 9.0,         # simulate --policy random
    "run_games": 9.0,           # simulate --games
    "run_unit_samples": 9.0,    # equity
    "equity_two_sides": 2.0,
    "_solve_cycle": 1.0,
    "apply_unit_py": 1.0,
    "rollout_chunk": 12.0,      # advise, odds
    "sample_hidden": 3.0,
    "class_table": 1.0,
    "_sum_splits": 1.0,
    "_fact_table": 1.0,
}
#: kernels compiled one after the other by the same command: the notice gives the sum
_GROUPS: tuple[tuple[str, ...], ...] = (
    ("rollout_chunk", "sample_hidden", "class_table", "_sum_splits", "_fact_table"),
    ("run_unit_samples", "equity_two_sides", "_solve_cycle", "apply_unit_py"),
)


#: what the kernels of each module are, for the notice (by the entry kernel's module)
WHAT: dict[str, str] = {
    "engine": "deal-and-play kernels",
    "games": "whole-game and game-equity kernels",    # by kernel: KERNEL_WHAT
    "rollout": "advice kernels (sampler and rollouts)",
    "sampler": "advice kernels (sampler and rollouts)",
    "unrank": "advice kernels (sampler and rollouts)",
    "solve": "double-dummy solver",
    "pimc": "pimc replay kernels",
}


def _estimate(name: str) -> int | None:
    """Seconds a cold compile of entry kernel ``name`` (and its group) takes, or None when
    it was not measured."""
    for g in _GROUPS:
        if name in g:
            return int(round(sum(COMPILE_SECONDS[k] for k in g)))
    sec = COMPILE_SECONDS.get(name)
    return None if sec is None else int(round(sec))


#: entry kernels of a module that holds two kinds (the games module: whole games, and the
#: game-equity table that advice with a score uses too)
KERNEL_WHAT: dict[str, str] = {
    "run_games": "whole-game kernels",
    "apply_unit_py": "game-equity kernels",
    "run_unit_samples": "game-equity kernels",
    "equity_two_sides": "game-equity kernels",
    "_solve_cycle": "game-equity kernels",
}


def _what(name: str, module: str) -> str:
    return KERNEL_WHAT.get(name) or WHAT.get(module.rsplit(".", 1)[-1], "kernels")


def notice_text(name: str, module: str) -> str:
    """The notice for entry kernel ``name`` of module ``module`` starting to compile (the
    time is that of the whole kind compiled from an empty cache: a kind partly cached
    takes less, hence "up to")."""
    sec = _estimate(name)
    about = "" if sec is None else f"; up to about {sec} s, more on a busy machine"
    return (f"compiling the engine's {_what(name, module)} (first run of this kind of "
            f"command only{about})")


class _Notice(_event.Listener):
    """Says, once per process for each kind of kernel (:data:`WHAT`), that it has begun
    compiling; nested compiles (helpers compiled for an entry kernel), more signatures and
    more entry kernels of a kind already named stay quiet."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.depth = 0
        self.said: set[str] = set()

    def on_start(self, event) -> None:
        self.depth += 1
        if self.depth > 1:
            return
        disp = (event.data or {}).get("dispatcher")
        func = getattr(disp, "py_func", None)
        name = getattr(func, "__name__", "")
        module = getattr(func, "__module__", "") or ""
        what = _what(name, module)
        if what in self.said:
            return
        self.said.add(what)
        self.say(notice_text(name, module))

    def on_end(self, event) -> None:
        self.depth = max(0, self.depth - 1)


class _Clock(_event.Listener):
    """Adds up the wall time of top-level numba compiles in this process (nested compiles
    of helpers count once, inside their entry kernel's)."""

    def __init__(self) -> None:
        self.depth = 0
        self.t0 = 0.0
        self.total = 0.0

    def on_start(self, event) -> None:
        if self.depth == 0:
            self.t0 = time.perf_counter()
        self.depth += 1

    def on_end(self, event) -> None:
        self.depth = max(0, self.depth - 1)
        if self.depth == 0:
            self.total += time.perf_counter() - self.t0


_CLOCK = _Clock()
_event.register("numba:compile", _CLOCK)


def compile_seconds() -> float:
    """Seconds this process has spent compiling numba kernels so far (a compile under way
    counts up to now). Time limits (``advise --time``) leave it out: a cold first run
    must not answer from fewer samples than a warm one."""
    running = time.perf_counter() - _CLOCK.t0 if _CLOCK.depth > 0 else 0.0
    return _CLOCK.total + running


class Stopwatch:
    """A job's clock, started when made: wall seconds since, and how many of them this
    process spent compiling numba kernels (a cold cache). A time limit counts
    :meth:`working` (the one-time compile left out); a result reports
    :meth:`compile_s` beside its elapsed time."""

    def __init__(self, t0: float | None = None) -> None:
        #: the start (a ``time.perf_counter()`` reading; default now)
        self.t0 = time.perf_counter() if t0 is None else float(t0)
        self.c0 = compile_seconds()

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def working(self) -> float:
        """Seconds since the start, less those spent compiling."""
        return self.elapsed() - (compile_seconds() - self.c0)

    def compile_s(self, elapsed: float) -> float:
        """Seconds of ``elapsed`` (a reading of :meth:`elapsed`) spent compiling."""
        return min(compile_seconds() - self.c0, elapsed)


@contextmanager
def compile_notice(say: Callable[[str], None]) -> Iterator[None]:
    """Within the block, call ``say(message)`` once when a numba kernel starts compiling.

    Parameters
    ----------
    say : callable(str)
        Receives ``"compiling the engine's WHAT (first run of this kind of command only;
        up to about N s, more on a busy machine)"`` once for each kind of kernel that compiles
        (:data:`WHAT`: each kind of command compiles its own kernels on its first run, then
        loads them from the cache); N is the measured cold compile time on an idle 2-core
        machine of the entry kernel (and its group) that compiles first, left out when not
        measured.
    """
    listener = _Notice(say)
    _event.register("numba:compile", listener)
    try:
        yield
    finally:
        _event.unregister("numba:compile", listener)


def compiling_note(seconds: float) -> str:
    """What a result's time line adds after its seconds when the run compiled kernels:
    ``", N s of it compiling the engine"``, or ``""`` when it compiled nothing (under
    0.05 s)."""
    return f", {seconds:.1f} s of it compiling the engine" if seconds >= 0.05 else ""


def process_started(max_age: float = 10.0) -> float:
    """The ``time.perf_counter()`` reading at which this process started (Linux: from
    ``/proc``), so that a command's ``--time`` covers its start-up too; now when that is
    unknown or more than ``max_age`` seconds ago (not a command's start-up: a command run
    inside a longer process, e.g. a test's)."""
    import os
    now = time.perf_counter()
    try:
        with open("/proc/self/stat") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        age = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    return now - age if 0.0 <= age <= max_age else now
