"""The ``catchten`` command line's shared options, declared once: the run options
(:class:`RunOptions`, :func:`run_options`), the rules and play options, a position as
flags; the commands themselves are in :mod:`catchten_sim.cli`."""
from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

import click

from .cli_kit import PathName, echo
from .policies import POLICY_NAMES
from .rules import PRESETS, Rules


def options(*decorators):
    """The click decorators ``decorators`` as one, in the order listed (the order
    ``--help`` shows them)."""
    def deco(f):
        for d in reversed(decorators):
            f = d(f)
        return f
    return deco


# ---------------------------------------------------------------------------- run options
#: deals a chunk of a run with --time (a chunk is the unit a time limit can stop at: at
#: some 300,000 deals a second, 16,384 deals are well under the 1 s a limit may overrun)
TIMED_CHUNK = 1 << 14


def cap_threads(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--threads`` above the cores this process may use: capped, with a one-line notice
    (results do not depend on the thread count; a bad count is the run's to refuse)."""
    from .checks import MAX_THREADS, max_threads
    cores = max_threads()
    if isinstance(value, int) and cores < value <= MAX_THREADS:
        echo(f"notice: --threads {value}: this machine has {cores} cores; using "
                   f"{cores}", err=True)
        return cores
    return value


#: every option of how a run goes, declared once (a command that needs other words for
#: one gives them: :func:`run_option`)
RUN_OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "seed": (("--seed", "-s"), {
        "type": int, "default": 1, "show_default": True,
        "help": "Random seed (0 to 2**64-1); results depend only on it."}),
    "threads": (("--threads", "-t"), {
        "type": int, "default": None, "callback": cap_threads,
        "help": "Threads (default: all cores; more than the cores: capped); results do "
                "not depend on it."}),
    "time_limit": (("--time", "time_limit"), {"type": float, "default": None}),
    "progress": (("--progress/--no-progress",), {
        "default": None,
        "help": "Progress bar on stderr (default: when stderr is a terminal)."}),
    "run_dir": (("--run-dir",), {
        "type": PathName(file_okay=False), "default": None, "metavar": "DIR",
        "help": "Keep every finished chunk in DIR (Parquet) with a manifest: a killed run "
                "loses only chunks in flight; `catchten resume DIR` finishes it, "
                "`catchten summarize DIR` reads it."}),
    "scheduler": (("--scheduler",), {
        "type": str, "default": None, "metavar": "tcp://HOST:PORT",
        "help": "Run on a running Dask cluster (`dask scheduler`, `dask worker`); same "
                "numbers as a local run."}),
    "workers": (("--workers",), {
        "type": int, "default": None,
        "help": 'Run on a local Dask cluster of N single-threaded processes (pip install '
                '-e ".[cluster]").'}),
    "chunk": (("--chunk",), {
        "type": int, "default": None,
        "help": "Deals (games) per chunk (the unit of work and of --run-dir files); "
                "results do not depend on it."}),
}


def run_option(name: str, **changes: Any):
    """The option ``name`` of :data:`RUN_OPTIONS` (``changes``: click settings of this
    command's, e.g. its own ``help``)."""
    flags, settings = RUN_OPTIONS[name]
    return click.option(*flags, **{**settings, **changes})


@dataclass(frozen=True)
class RunOptions:
    """Where and how a command's run goes (:mod:`catchten_sim.run`): the options of
    :data:`RUN_OPTIONS` a command has, handed to it as one ``run`` by :func:`run_options`
    (None: not given, or not an option of the command)."""

    threads: int | None = None
    run_dir: str | None = None
    scheduler: str | None = None
    workers: int | None = None
    chunk: int | None = None
    time_limit: float | None = None

    def engine(self) -> dict[str, Any]:
        """``run_dir``, ``scheduler``, ``workers`` and ``chunk`` (when given) as the
        keywords of the library's long runs."""
        return {"run_dir": self.run_dir, "scheduler": self.scheduler, "workers": self.workers,
                **({"chunk": self.chunk} if self.chunk is not None else {})}


def run_options(*names: str, **changes: dict[str, Any]):
    """The run options ``names`` (default ``--run-dir``, ``--scheduler``, ``--workers`` and
    ``--chunk``; ``changes``: a command's own settings of one, by name), below the
    command's other options: the command gets them, with ``--threads`` and ``--time``
    when it has them, as one ``run`` (:class:`RunOptions`)."""
    names = names or ("run_dir", "scheduler", "workers", "chunk")
    fields = [f.name for f in dataclasses.fields(RunOptions)]

    def deco(f):
        @functools.wraps(f)
        def command(*args, **kw):
            kw["run"] = RunOptions(**{k: kw.pop(k) for k in fields if k in kw})
            return f(*args, **kw)
        for name in reversed(names):
            command = run_option(name, **changes.get(name, {}))(command)
        return command
    return deco


# options several commands share (a click.option decorator makes a new Option at each use)
PROGRESS_OPTION = run_option("progress")
JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print JSON (errors too).")
RESULT_JSON_OPTION = click.option("--json", "as_json", is_flag=True,
                                  help="Print the result as JSON.")
DEAD_OPTION = click.option("--dead", type=str, default=None, metavar="\"CARDS\"",
                           help="Cards laid aside (keep_six_of_spades).")
#: ``advise --cards``: a subset of the legal cards (with pimc rollouts: a 2-card question)
ONLY_CARDS_OPTION = click.option(
    "--cards", "only", type=str, default=None, metavar="\"CARDS\"",
    help="Evaluate only these legal cards, e.g. \"JS 7D\" (default: every legal card); "
         "with pimc rollouts two cards of a 9-card lead take 2/9 of the time.")


#: ``advise``: how each card is valued, the inference, the cards asked for, enumeration
ADVISE_EVALUATOR_OPTIONS = options(
    click.option("--evaluator", type=str, default="rollout", show_default=True,
                 help="rollout: the policies play the deal out (as good as their play); dd: "
                      "solved double-dummy, perfect play seeing every hand (MODEL line when the "
                      "heuristic rollouts disagree). Where they differ ipimc:10 rollouts sided "
                      "with dd 7 times in 30, rollout 4, 19 too close: neither clearly more "
                      "often right, so rollout stays the default (docs/findings.md)."),
    click.option("--infer", type=str, default=None, metavar="MODEL",
                 help="With --evaluator dd: weight each deal by how likely the other seats' "
                      "cards so far are in it under a model of their play: heuristic (the "
                      "heuristic mixed with a uniform choice; the output says how many deals "
                      "were drawn and their effective size), or none (default: every "
                      "consistent deal equally likely)."),
    ONLY_CARDS_OPTION,
    click.option("--exact-max", type=int, default=None,
                 help="Enumerate every consistent deal (an exact answer) when there are at "
                      "most this many (default 20000 with dd, 100000 with rollout; 0: always "
                      "sample)."))


def turnup_option(required: bool):
    """``--turnup`` (``advise`` takes it or a position file; ``odds`` needs it)."""
    return click.option("--turnup", type=str, default=None, required=required,
                        help="The turned-up card.")


def rules_options(f):
    """The rules options shared by every command that plays."""
    f = click.option("--variant", "-V", "variants", multiple=True, metavar="NAME[=VALUE]",
                     help="A rule switch from docs/rules.md, e.g. keep_six_of_spades or target=31 "
                          "(repeatable).")(f)
    f = click.option("--rules-file", type=PathName(dir_okay=False),
                     help="TOML file: rules = \"foster\", players = 4, [variants] ...; "
                          "other options override it.")(f)
    f = click.option("--players", "-n", type=int, default=None,
                     help="Number of players, 2 to 8 (foster); default 4.")(f)
    f = click.option("--rules", "-r", "preset", type=str, default=None,
                     help=f"Rule preset: {', '.join(PRESETS)} (default foster).")(f)
    return f


def play_options(whose: str, pimc: bool = False):
    """``--policy``, ``--opponents``, ``--seed`` and ``--threads``, shared by every command
    that plays deals (``whose``: whose policy ``--policy`` sets; ``pimc``: the command also
    takes the PIMC players)."""
    more = ", pimc[:N] or ipimc[:N] (PIMC players, N worlds a decision)" if pimc else ""
    return options(
        click.option("--policy", "-p", type=str, default="heuristic", show_default=True,
                     help=f"Policy of {whose}: {', '.join(POLICY_NAMES)}{more}."),
        click.option("--opponents", type=str, default=None,
                     help="Policy of the other sides (default: the same as --policy)."),
        run_option("seed"), run_option("threads"))


def make_rules(preset: str | None, players: int | None, variants: tuple[str, ...],
               rules_file: str | None) -> Rules:
    return Rules.from_options(preset, players, variants, rules_file)


#: the docs/formats.md position as flags (instead of a POSITION.json file)
position_options = options(
    DEAD_OPTION,
    click.option("--dealer", type=int, default=None, help="The dealer's seat."),
    click.option("--seat", type=int, default=None, help="Your seat (0 … n-1)."),
    click.option("--hand", type=str, default=None, metavar="\"CARDS\"",
                 help="The cards you hold now, e.g. \"JS AS 9S KH QH 7D 8C 9C TC\"."),
    turnup_option(False),
    click.option("--play", type=str, default=None, metavar="\"CARDS\"",
                 help="Every card played so far this hand, in order (\"\" for none)."),
    click.option("--score", type=str, default=None, metavar="\"A B\"",
                 help="Each side's game score before this hand, side order; with "
                      "POSITION.json it overrides the file's \"score\"."),
    click.option("--trump", type=str, default=None, metavar="S|H|D|C|NT",
                 help="The trump the dealer declared (jaques dealer_declares, which has no "
                      "turn-up: give --trump instead of --turnup)."))
