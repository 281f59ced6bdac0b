"""Say on stderr that the engine is compiling, when it is.

The numba kernels are compiled on first use and cached on disk (``cache=True``); a cold
cache (first run, a new numba or package version, a wiped ``__pycache__``) costs seconds of
silence. numba broadcasts a ``numba:compile`` event only when a kernel is really compiled
(a cache hit loads without it), so listening to it is exact and costs nothing when the
cache is warm. With ``NUMBA_DISABLE_JIT=1`` nothing compiles and nothing is said.

A command says so once, with one estimate for its whole first run: the kinds of kernels it
compiles (:func:`first_run_kinds`, from its name and flags), less those already in the
cache, each with its measured cold compile time (:data:`KINDS`).

Usage::

    with compile_notice(lambda msg: print(msg, file=sys.stderr), ("advice", "solver"),
                        is_cached):
        advise(...)
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from collections.abc import Callable, Iterator

from numba.core import event as _event

__all__ = ["BUSY_FACTOR", "KINDS", "Stopwatch", "compile_notice", "compile_seconds",
           "compiling_note", "first_run_kinds", "first_run_text"]

#: the kinds of kernels a command may compile on its first run: name -> (its entry
#: kernels, ``"module.function"`` under ``catchten_sim._kernels``; the seconds a cold
#: compile of them takes, measured one command at a time with ``NUMBA_CACHE_DIR`` pointing
#: at an empty directory on the project's 2-core machine, load average 1.3 to 2.8: the
#: numbers of docs/speed.md, "First compiles")
KINDS: dict[str, tuple[tuple[str, ...], float]] = {
    "play": (("engine._run_policies",), 16.0),          # simulate, report, match
    "play_random": (("engine._run_random",), 12.0),     # simulate --policy random, report
    "games": (("games.run_games",), 19.0),              # simulate --games
    "advice": (("rollout.rollout_chunk", "sampler.sample_hidden"), 13.0),   # advise, odds
    "solver": (("solve.solve_batch",), 11.0),           # solve, advise --evaluator dd
    "honours": (("solve._honour_plans",), 4.0),         # the solver, honours only
    "equity": (("games.run_unit_samples",), 14.0),      # equity, advise with a score
    "pimc": (("pimc.scripted_deal",), 6.0),             # match pimc / ipimc
    "infer": (("infer.log_weights",), 4.0),             # --infer, ipimc
    "game_rollouts": (("gamerollout.rollout_states",), 15.0),   # P(win) at 4+ sides
}

#: the entry kernel's module (under ``_kernels``) -> its kind, for a kernel that compiles
#: outside a command's plan (the kind of its module; helpers compiled on their own, like
#: ``trick.turnup_lock_bit``, belong to no kind and add nothing)
_MODULE_KIND = {"engine": "play", "games": "games", "rollout": "advice", "sampler": "advice",
                "unrank": "advice", "solve": "solver", "pimc": "pimc", "infer": "infer",
                "gamerollout": "game_rollouts"}
_KERNEL_KIND = {f"{m}.{f}": k for k, (entries, _) in KINDS.items()
                for m, f in (e.split(".") for e in entries)}
_KERNEL_KIND.update({"engine._run_random": "play_random", "games.run_unit_samples": "equity",
                     "games.equity_two_sides": "equity", "games.apply_unit_py": "equity",
                     "games._solve_cycle": "equity"})


def _flag(args: list[str], *names: str) -> str | None:
    """The value of the last of option ``names`` in ``args`` (``--x V`` or ``--x=V``), or
    ``""`` for a flag given without a value, None when absent."""
    found = None
    for i, a in enumerate(args):
        for n in names:
            if a == n:
                found = args[i + 1] if i + 1 < len(args) else ""
            elif a.startswith(n + "=") and n.startswith("--"):
                found = a[len(n) + 1:]
    return found


def _has_score(args: list[str]) -> bool:
    """An advice with a game score (``--score``, or a position file that gives one): it
    needs the game-equity kernels too."""
    if _flag(args, "--score") is not None:
        return True
    import json
    for a in args[1:]:
        if a.endswith(".json"):
            try:
                with open(a, encoding="utf-8") as f:
                    data = json.load(f)
            except (OSError, ValueError, RecursionError):
                continue
            if isinstance(data, dict) and data.get("score") is not None:
                return True
    return False


#: the presets that score honours only (no card points): their solves use the bounds of
#: :data:`KINDS` ``honours``, compiled apart
HONOURS_PRESETS = ("french52", "jaques")


def _honours_only(args: list[str]) -> bool:
    """The command's rules score honours only, as far as its flags and files say:
    ``--rules`` french52 or jaques, ``--variant card_points=off``, or a position or
    rules file naming them."""
    if (_flag(args, "--rules", "-r") or "").strip().lower() in HONOURS_PRESETS:
        return True
    if any(a.replace(" ", "").lower() in ("card_points=off", "--variant=card_points=off")
           for a in args):
        return True
    for a in args[1:]:
        text = ""
        if a.endswith((".json", ".toml")):
            try:
                with open(a, encoding="utf-8") as f:
                    text = f.read(100_000)
            except (OSError, ValueError):
                continue
        low = text.replace(" ", "").lower()
        if any(f'"{p}"' in low for p in HONOURS_PRESETS) or '"card_points":"off"' in low \
                or "card_points=\"off\"" in low:
            return True
    return False


def _pimc(strategy: str) -> tuple[str, ...]:
    s = strategy.split(":")[0].strip().lower()
    if s == "pimc":
        return ("pimc", "advice", "solver")
    if s == "ipimc":
        return ("pimc", "advice", "solver", "infer")
    return ()


def first_run_kinds(args: list[str]) -> tuple[str, ...] | None:
    """The kinds of kernels (:data:`KINDS`) the command ``args`` (``sys.argv[1:]``) compiles
    on its first run, read from its name and the flags that choose kernels (a policy, the
    evaluator, a score, whole games, pimc strategies; the solver's honours-only bounds for
    rules that score honours only); None for a command not planned here (its notice then
    counts the kind that starts compiling alone)."""
    kinds = _first_run_kinds(args)
    if kinds is not None and "solver" in kinds and _honours_only(args):
        kinds += ("honours",)
    return kinds


def _first_run_kinds(args: list[str]) -> tuple[str, ...] | None:
    words = [a for a in args if not a.startswith("-")]
    if not words:
        return None
    cmd = words[0]
    if cmd == "simulate":
        if _flag(args, "--games", "-g") is not None:
            return ("games",)
        pol = (_flag(args, "--policy", "-p") or "heuristic").strip().lower()
        opp = (_flag(args, "--opponents") or pol).strip().lower()
        kinds: tuple[str, ...] = ("play_random",) if pol == opp == "random" and \
            _flag(args, "--seat-policy") is None else ("play",)
        if _flag(args, "--report") is not None:      # the report's runs: both kinds once
            kinds = tuple(dict.fromkeys(kinds + ("play", "play_random")))
        return kinds
    if cmd == "report":
        return ("play", "play_random")
    if cmd in ("advise", "odds"):
        kinds = ("advice",)
        if cmd == "advise" and (_flag(args, "--evaluator") or "").lower() in ("dd", "pimc"):
            kinds += ("solver",)
        if cmd == "advise" and _flag(args, "--infer") is not None:
            kinds += ("infer",)
        if cmd == "advise" and _has_score(args):
            kinds += ("equity",)
        return kinds
    if cmd == "solve":
        return ("solver",)
    if cmd == "equity":
        if _flag(args, "--scores") is not None and (
                (_flag(args, "--method") or "").lower() == "rollouts"):
            return ("game_rollouts",)
        return ("equity",)
    if cmd == "match":
        kinds = ("play",)
        for w in words[1:3]:
            kinds += _pimc(w)
        if _flag(args, "--p-win-game") is not None:
            kinds += ("game_rollouts",)
        return kinds
    return None


def _kind_of(disp) -> str | None:
    func = getattr(disp, "py_func", None)
    module = (getattr(func, "__module__", "") or "").rsplit(".", 1)[-1]
    name = f"{module}.{getattr(func, '__name__', '')}"
    return _KERNEL_KIND.get(name) or _MODULE_KIND.get(module)


#: how many times the measured compile (:data:`KINDS`, load 1.3 to 2.8) a busy 2-core
#: machine took: a cold first dd advice compiled for 103 s at load 4.6 (2026-12-05, this
#: module's estimate 53 s) and for 158 s at load 4.5 in review2 (docs/speed.md)
BUSY_FACTOR = 3


def first_run_text(seconds: float | None) -> str:
    """The one notice of a command's first run: ``compiling the engine for this command's
    first run (once): about N s on a lightly loaded 2-core machine, up to 3 times that on
    a busy one``; N the measured cold compile of the kinds it still has to compile
    (:data:`KINDS`, measured at load 1-3; an idle machine takes less), rounded to 5 s;
    :data:`BUSY_FACTOR` from the slowest cold runs seen. No time when none was measured."""
    head = "compiling the engine for this command's first run (once)"
    if seconds is None or seconds <= 0:
        return head
    n = max(5, int(round(seconds / 5.0)) * 5)
    return (f"{head}: about {n} s on a lightly loaded 2-core machine, up to "
            f"{BUSY_FACTOR} times that on a busy one")


def _estimate(kinds: tuple[str, ...] | None, first: str | None,
              cached: Callable[[str], bool] | None) -> float | None:
    """Seconds of cold compile left: each planned kind whose entry kernels are not all in
    the cache (``cached``), and the kind starting to compile now (it is not cached, even
    when a command not planned here compiles it)."""
    todo = [k for k in dict.fromkeys(kinds or ()) if cached is None
            or not all(cached(e) for e in KINDS[k][0])]
    if first is not None and first not in todo:
        todo.append(first)
    if not todo:
        return None
    return sum(KINDS[k][1] for k in todo)


class _Notice(_event.Listener):
    """Says once, when the first top-level kernel of the command starts compiling, that the
    engine is compiling for this command's first run, with one estimate for everything the
    command still has to compile (:func:`first_run_kinds`, less the kinds already
    cached); later compiles (nested helpers, more signatures, more kinds) stay quiet."""

    def __init__(self, say: Callable[[str], None], kinds: tuple[str, ...] | None,
                 cached: Callable[[str], bool] | None) -> None:
        self.say = say
        self.kinds = kinds
        self.cached = cached
        self.depth = 0
        self.said = False

    def on_start(self, event) -> None:
        self.depth += 1
        if self.depth > 1 or self.said:
            return
        self.said = True
        first = _kind_of((event.data or {}).get("dispatcher"))
        self.say(first_run_text(_estimate(self.kinds, first, self.cached)))

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

    def deadline(self, limit: float) -> Callable[[], float]:
        """The ``time.monotonic()`` time ``limit`` working seconds from the start end at, as
        a function read again at every look (a compile under way moves it on): what
        ``advise --time`` and ``solve --time`` stop the solver at."""
        return lambda: time.monotonic() + limit - self.working()

    def compile_s(self, elapsed: float) -> float:
        """Seconds of ``elapsed`` (a reading of :meth:`elapsed`) spent compiling."""
        return min(compile_seconds() - self.c0, elapsed)


@contextmanager
def compile_notice(say: Callable[[str], None], kinds: tuple[str, ...] | None = None,
                   cached: Callable[[str], bool] | None = None) -> Iterator[None]:
    """Within the block, call ``say(message)`` once, when the first numba kernel starts
    compiling (nothing when every kernel loads from the cache).

    Parameters
    ----------
    say : callable(str)
        Receives :func:`first_run_text` of the seconds the command still has to compile.
    kinds : the kinds of kernels (:data:`KINDS`) the command compiles on its first run
        (:func:`first_run_kinds`); None: only the kind that starts compiling is counted.
    cached : callable(entry) -> bool
        Whether an entry kernel is in the cache (``catchten_sim._kernels.is_cached``);
        kinds all of whose entry kernels are cached add nothing. None: every planned
        kind counts.
    """
    listener = _Notice(say, kinds, cached)
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
