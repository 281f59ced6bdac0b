"""The command line's plumbing (:mod:`catchten_sim.cli` holds the commands): the group
whose errors are one line (exit 2 for bad input, 1 for failures, 130 for Ctrl-C, never a
traceback), errors as JSON with ``--json``, the progress bar, and path names that refuse
an empty name.
"""
from __future__ import annotations

import copy
import json
import os
import re
import sys
import time
from contextlib import contextmanager
from typing import Any
from collections.abc import Iterator

import click

from .errors import (LINE_PREFIX, LINE_WIDTH, MIN_ECHO, CatchTenError, choices_hint,
                     close_match, echoed, fit_line, shortened)


# ---------------------------------------------------------------------------- plumbing
#: the line of a Ctrl-C before anything finished (a command with finished work prints it,
#: marked partial, instead)
INTERRUPTED_EMPTY = ("error: interrupted (Ctrl-C) before the first batch finished: nothing "
                     "to show")


def interrupted_line(exc: BaseException | None = None) -> str:
    """The line of a Ctrl-C that reached the command line with nothing printed: what the
    interrupted step had when it says so (``exc.line``: an equity DP), else with a run
    directory, where the finished chunks are and how to go on."""
    from .run.dirs import LAST_RUN_DIR
    if isinstance(getattr(exc, "line", None), str):
        return f"error: {exc.line}"     # type: ignore[union-attr]
    if LAST_RUN_DIR is not None:
        return (f"error: interrupted (Ctrl-C) before the results were printed; the finished "
                f"chunks are kept in {LAST_RUN_DIR}: catchten resume {LAST_RUN_DIR} "
                "finishes the run and prints them")
    return INTERRUPTED_EMPTY


def one_line(text: str) -> str:
    return " ".join(str(text).split())


class _PlainWords(click.ParamType):
    """Mixed into a click number or choice type (:func:`plain_words`): a bad value is
    told in the project's words, ``"abc" is not a whole number``, ``0 is out of range (1
    or more)``, ``"bogus"; known: a, b``, not click's (``'abc' is not a valid
    integer.``)."""

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            raise click.BadParameter(_bad_value_words(self, value, exc.message), ctx,
                                     param) from None


def _range_words(t: Any, number: float | None = None) -> str:
    """A number range in words; with the ``number`` refused, only the end it is beyond
    (``1 or more`` for 0, ``at most 1e+15`` for 1e+23: one line within 80 columns)."""
    lo = None if t.min is None else f"{'more than' if t.min_open else 'from'} {t.min:g}"
    hi = None if t.max is None else f"{'below' if t.max_open else 'at most'} {t.max:g}"
    if number is not None and hi and t.max is not None and number >= t.max:
        return hi
    if number is not None and lo and t.min is not None and number <= t.min:
        lo, hi = lo, None
    if lo and not hi and not t.min_open:
        return f"{t.min:g} or more"
    return ", ".join(w for w in (lo, hi) if w)


def _bad_value_words(t: click.ParamType, value: Any, message: str) -> str:
    shown = echoed(value)
    if isinstance(t, click.Choice):
        return f"{shown}; {choices_hint(value, [str(c) for c in t.choices])}"
    whole = isinstance(t, click.types.IntParamType)
    try:
        number = (int if whole else float)(value)
    except (TypeError, ValueError, OverflowError):
        return f"{shown} is not a {'whole number' if whole else 'number'}"
    if isinstance(t, click.types._NumberRangeBase):
        said = f"{number}" if whole and len(f"{number}") <= 16 else f"{number:g}"
        return f"{said} is out of range: {_range_words(t, number)}"
    return one_line(message).rstrip(".")


#: the click types whose errors :class:`_PlainWords` words (their subclasses too)
_WORDED = (click.types.IntParamType, click.types.FloatParamType, click.Choice)
_plain_classes: dict[type, type] = {}


def plain_words(t: click.ParamType) -> click.ParamType:
    """A copy of click type ``t`` whose bad values are told in the project's words
    (:class:`_PlainWords`), or ``t`` itself when it is not a number or choice type."""
    if not isinstance(t, _WORDED) or isinstance(t, _PlainWords):
        return t
    cls = type(t)
    if cls not in _plain_classes:
        _plain_classes[cls] = type(f"Plain{cls.__name__}", (_PlainWords, cls), {})
    plain = copy.copy(t)
    plain.__class__ = _plain_classes[cls]
    return plain


class CatchtenCommand(click.Command):
    """A command of :class:`CatchtenGroup`: its number and choice options tell a bad value
    in the project's words (:func:`plain_words`), one line like every other error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for p in self.params:
            p.type = plain_words(p.type)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CatchTenError as exc:
            raise pointed_to_help(exc, ctx) from None


def pointed_to_help(exc: CatchTenError, ctx: click.Context) -> CatchTenError:
    """``exc`` with the pointer to where the policies are listed
    (:data:`~catchten_sim.policies.POLICIES_POINTER`, said where the list does not fit
    the line) naming the help of the command in use: ``catchten odds --policy expert``
    points to ``catchten odds --help``, which lists the policies odds takes, not to
    match's."""
    from .policies import pointed
    return pointed(exc, _help_pointer(ctx))


class UnknownCommand(click.UsageError):
    """``catchten NAME`` with no command NAME (its line suggests the nearest command,
    :func:`~catchten_sim.errors.close_match`, as an unknown option does)."""

    def __init__(self, name: str, known: list[str], ctx: click.Context) -> None:
        super().__init__(f"no command {name!r}", ctx)
        self.name = name
        self.known = known


class CatchtenGroup(click.Group):
    """A click group whose errors are one line and exit 2 (usage) or 1 (failure); its
    commands are :class:`CatchtenCommand`."""

    command_class = CatchtenCommand

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name = args[0] if args else ""
        if name and name[:1] != "-" and self.get_command(ctx, name) is None:
            raise UnknownCommand(name, self.list_commands(ctx), ctx)
        return super().resolve_command(ctx, args)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):  # noqa: D401
        from .run import dirs
        dirs.LAST_RUN_DIR = None      # a Ctrl-C names this command's run directory only
        with second_interrupt_exits():
            self._main(args, prog_name, complete_var, **extra)

    def _main(self, args, prog_name, complete_var, **extra):
        from .compile_notice import compile_notice, first_run_kinds
        from .run import notices
        argv = list(sys.argv[1:] if args is None else args)
        try:
            with compile_notice(lambda msg: echo(msg, err=True), first_run_kinds(argv),
                                _kernel_cached), \
                    notices(lambda msg: echo(msg, err=True)):
                rv = super().main(args=args, prog_name=prog_name or "catchten",
                                  complete_var=complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.exceptions.NoArgsIsHelpError as exc:
            # bare ``catchten`` (or a group with no command): the help, as --help prints it
            if exc.ctx is not None:
                click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.UsageError as exc:
            field, why, detail = usage_error_parts(exc)
            if json_wanted(args):
                click.echo(json.dumps({"kind": "error", "field": field, "why": why,
                                       "detail": detail}, ensure_ascii=False))
                sys.exit(2)
            click.echo(f"error: {usage_error_line(field, why, detail)}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            click.echo(f"error: {one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code if exc.exit_code else 1)
        except CatchTenError as exc:
            # bad input: 2; a failure on good input (a solve beyond its budget): 1
            status = exc.exit_status
            if json_wanted(args):
                click.echo(json.dumps(exc.to_dict(), ensure_ascii=False))
                sys.exit(status)
            click.echo(f"error: {one_line(exc.line())}", err=True)
            sys.exit(status)
        except click.Abort as exc:
            # click turns a Ctrl-C into Abort; it reaches here only when the command had
            # nothing finished to show (finished work is returned, marked partial)
            if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
                click.echo(interrupted_line(exc.__cause__ or exc.__context__), err=True)
            else:
                click.echo("error: aborted", err=True)
            sys.exit(130)
        except KeyboardInterrupt as exc:
            click.echo(interrupted_line(exc), err=True)
            sys.exit(130)
        except BrokenPipeError:
            sys.exit(1)
        except UnicodeDecodeError as exc:  # an input file that is not UTF-8 text
            click.echo(f"error: input: not UTF-8 text (byte {exc.start}: "
                       f"{exc.object[exc.start:exc.start + 1]!r})", err=True)
            sys.exit(2)
        except Exception as exc:  # a bug: say so in one line, keep the exit status 1
            if os.environ.get("CATCHTEN_DEBUG"):
                raise
            click.echo(f"error: internal error: {type(exc).__name__}: {one_line(exc)} "
                       "(please report it)", err=True)
            sys.exit(1)
        if isinstance(rv, int) and not isinstance(rv, bool):
            sys.exit(rv)
        sys.exit(0)


def _kernel_cached(entry: str) -> bool:
    """Whether entry kernel ``entry`` (``"module.function"`` under
    ``catchten_sim._kernels``, e.g. ``"solve.solve_batch"``) has a compiled version in
    numba's cache for this code (its index exists and carries this code's stamp and
    numba's version), so that its first call loads it instead of compiling. False when it
    cannot be told (another numba): the compile notice then counts it, erring long."""
    import importlib
    mod, _, name = entry.rpartition(".")
    try:
        disp = getattr(importlib.import_module(f"{__package__}._kernels.{mod}"), name)
        return bool(disp._cache._cache_file._load_index())
    except Exception:       # noqa: BLE001 - numba internals: any failure means "not known"
        return False


@contextmanager
def second_interrupt_exits() -> Iterator[None]:
    """For one command: a first Ctrl-C raises KeyboardInterrupt (the command prints what
    finished, marked partial), a second exits at once (status 130), even while the first
    is still waiting for work in flight (:func:`catchten_sim.run.on_interrupt`)."""
    import signal
    import threading
    from .run import engine, on_interrupt
    engine.INTERRUPTS[0] = 0
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        on_interrupt()
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


class PathName(click.Path):
    """``click.Path`` that refuses an empty name (``--out ""`` would otherwise mean "no
    output" or the current directory, silently)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("empty name", param, ctx)
        return super().convert(value, param, ctx)


def json_wanted(args: Any) -> bool:
    """True when the command line asks for ``--json`` (then even errors that click finds
    before a command runs are printed as the docs/formats.md error object)."""
    words = sys.argv[1:] if args is None else list(args)
    return "--json" in words


#: the why of each kind of click usage error (docs/formats.md error object)
_USAGE_WHYS = {"BadParameter": "bad option value", "MissingParameter": "missing option",
               "NoSuchOption": "unknown option", "BadOptionUsage": "bad option value",
               "BadArgumentUsage": "bad argument"}


def _flag(param: click.Parameter) -> str:
    """A parameter's name as the command line spells it, without dashes (``--time``:
    ``time``, argument ``run_dir``: ``run-dir``)."""
    return max(param.opts, key=len).lstrip("-").replace("_", "-")


def _help_pointer(ctx: click.Context | None) -> str:
    if ctx is None or ctx.parent is None:
        return "see: catchten --help"
    return f"see: catchten {ctx.command.name} --help"


def usage_error_parts(exc: click.UsageError) -> tuple[str | None, str, str]:
    """A click usage error (bad option value, missing option, unknown option) as the
    docs/formats.md ``field``, ``why`` and ``detail`` (field None: no field to name, e.g.
    an extra argument; the detail is then click's message). Where the help tells what to
    write instead (an unknown or missing option), the detail points to it."""
    param = getattr(exc, "param", None)
    why = _USAGE_WHYS.get(type(exc).__name__, "usage error")
    if isinstance(exc, click.NoSuchOption):
        names = [] if exc.ctx is None else [o for p in exc.ctx.command.params
                                            for o in p.opts + p.secondary_opts if o[:1] == "-"]
        near = close_match(exc.option_name, names)
        return (exc.option_name.lstrip("-"), why,
                f"did you mean '{near}'?" if near else _help_pointer(exc.ctx))
    if isinstance(param, click.Parameter) and param.name:
        if isinstance(param, click.Argument):
            why = "missing argument" if why == "missing option" else "bad argument"
        if isinstance(exc, click.MissingParameter):
            return _flag(param), why, f"required; {_help_pointer(exc.ctx)}"
        return _flag(param), why, one_line(exc.message).rstrip(".")
    if isinstance(exc, click.BadOptionUsage):
        said = one_line(exc.message).rstrip(".")
        return exc.option_name.lstrip("-"), why, \
            f"{exc.option_name} needs a value" if "requires an argument" in said else said
    if isinstance(exc, UnknownCommand):
        near = close_match(exc.name, exc.known)
        return exc.name, "unknown command", \
            f"did you mean '{near}'?" if near else _help_pointer(exc.ctx)
    extra = _EXTRA.match(one_line(exc.format_message()))
    if extra:                       # click says it with no field, over 80 columns
        words = extra.group(1) if len(extra.group(1)) <= 30 else shortened(extra.group(1), 30)
        return "arguments", "unexpected extra", f"{words}; {_help_pointer(exc.ctx)}"
    return None, why, f"{one_line(exc.format_message())} ({_help_pointer(exc.ctx)})"


#: click's message for arguments beyond a command's last one
_EXTRA = re.compile(r"Got unexpected extra arguments? \((.*)\)$")


def usage_error_line(field: str | None, why: str, detail: str) -> str:
    """The one line of a click usage error: ``FIELD: WHY (detail)``, or the detail alone
    when there is no field (:func:`usage_error_parts`), what the user wrote shortened to
    fit the line as a :class:`CatchTenError`'s is (:func:`fit_line`); an unknown option's
    name, the field, too where it is that long (the JSON keeps it whole)."""
    if field is None:
        return fit_line(detail)
    line = fit_line(f"{field}: {why} ({detail})")
    over = len(line) - (LINE_WIDTH - len(LINE_PREFIX))
    if over > 0 and len(field) - over >= MIN_ECHO:
        line = fit_line(f"{shortened(field, len(field) - over)}: {why} ({detail})")
    return line


@contextmanager
def errors_as_json(as_json: bool) -> Iterator[None]:
    """With ``--json``, a bad-input error is printed as the docs/formats.md error object on one
    line of stdout (exit 2); without it, it reaches the one-line stderr handler."""
    try:
        yield
    except CatchTenError as exc:
        if as_json:
            click.echo(json.dumps(exc.to_dict(), ensure_ascii=False))
            sys.exit(exc.exit_status)
        raise
    except KeyboardInterrupt as exc:
        if as_json:
            click.echo(json.dumps({"kind": "error", "field": None, "why": "interrupted",
                                   "detail": interrupted_line(exc).split(": ", 1)[1]}))
            sys.exit(130)
        raise


@contextmanager
def fields_as(names: dict[str, str]) -> Iterator[None]:
    """A bad-input error's field as the command's help names it: ``match``'s arguments
    ``A`` and ``B`` (``{"a": "A", "b": "B"}``), the keywords ``a`` and ``b`` of the Python
    API, where ``error: a: unknown policy`` read as an article, not a field."""
    try:
        yield
    except CatchTenError as exc:
        if exc.field in names:
            exc.field = names[exc.field]
            exc.args = (exc.line(),)
        raise


def emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False))


class Progress:
    """A rich progress bar on stderr that appears once a run takes over ~2 seconds."""

    def __init__(self, total: int, label: str = "deals") -> None:
        self.total = total
        self.label = label
        self.start = time.perf_counter()
        self.bar: Any = None
        self.task = None

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            if time.perf_counter() - self.start < 2.0 or done >= total:
                return
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress,
                                       TimeRemainingColumn)
            self.bar = Progress(self.label, BarColumn(), MofNCompleteColumn(),
                                TimeRemainingColumn(), console=Console(stderr=True),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        self.bar.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def echo(text: str = "", err: bool = False) -> None:
    """:func:`catchten_sim.text.echo` (plain text wrapped to the terminal's width), imported
    when first used (the text module brings rich)."""
    from .text import echo as wrapped
    wrapped(text, err)


#: a step that runs longer than this says what it does on stderr (:func:`long_step`)
LONG_STEP_S = 2.0


@contextmanager
def long_step(what: str, progress: bool | None, t0: float | None = None
              ) -> Iterator[list[bool]]:
    """With stderr not a terminal (and no --progress/--no-progress given): a step that is
    still running after :data:`LONG_STEP_S` says ``WHAT ...`` on stderr, and when it ends,
    ``WHAT: done in N s`` (one line each, no progress bar; a quick step, or one that ends
    in an error, says nothing). Yields a list: append False to it when the step was cut
    short (Ctrl-C: the command's own line says so, not "done"). ``t0``: the
    ``time.perf_counter()`` reading N counts from (default: now), the start of the time
    the command's result states (advise's: the process's start), so that the two lines
    say one number."""
    cut: list[bool] = []
    if progress is not None or sys.stderr.isatty():
        yield cut
        return
    import threading
    t0 = time.perf_counter() if t0 is None else t0
    said = threading.Event()

    def start() -> None:
        said.set()
        echo(f"{what} ...", err=True)

    timer = threading.Timer(LONG_STEP_S, start)
    timer.daemon = True
    timer.start()
    try:
        yield cut
    finally:
        timer.cancel()
    if said.is_set() and all(cut):
        echo(f"{what}: done in {time.perf_counter() - t0:.1f} s", err=True)


def say(msg: str) -> None:
    echo(f"  {msg}", err=True)


def seat_policy_flags(items: Any) -> dict[int, str]:
    """``--seat-policy SEAT=POLICY`` flags as ``{seat: policy}`` (the same seat twice only
    with the same policy).

    Raises
    ------
    CatchTenError
        ``seat-policy: expected SEAT=POLICY`` or ``seat-policy: given twice``.
    """
    overrides: dict[int, str] = {}
    for item in items:
        seat, sep, pol = item.partition("=")
        if not sep or not seat.strip().isdigit():
            raise CatchTenError("seat-policy", "expected SEAT=POLICY", repr(item))
        if int(seat) in overrides and overrides[int(seat)].strip() != pol.strip():
            raise CatchTenError("seat-policy", "given twice",
                                f"seat {int(seat)}: {overrides[int(seat)]} and {pol}")
        overrides[int(seat)] = pol
    return overrides


def given(*names: str) -> list[str]:
    """The parameters of the running command among ``names`` (their Python names) that the
    user gave, on the command line or from the environment, as the flags' names without
    the dashes (``preset`` -> ``rules``, ``variants`` -> ``variant``), for error fields."""
    ctx = click.get_current_context()
    flags = {p.name: max(p.opts, key=len).lstrip("-") for p in ctx.command.params}
    return [flags[n] for n in names
            if ctx.get_parameter_source(n) not in (None, click.core.ParameterSource.DEFAULT)]


def check_force(force: bool, report_dir: str | None) -> None:
    """``--force`` means something only with ``--report``."""
    if force and report_dir is None:
        raise CatchTenError("force", "only with --report", "--force lets --report write "
                            "into a directory that already holds files")


def check_run_options(threads, scheduler, workers) -> None:
    """Refuse bad --threads/--scheduler/--workers of a resume that runs nothing (a run
    checks them when it starts): bad input is exit 2 either way."""
    from .run import check_executor_options
    from .checks import check_threads
    if threads is not None:
        check_threads(threads)
    check_executor_options(scheduler, workers)


def cards_flag(text):
    return [] if text is None else text.replace(",", " ").split()


def load_position(path, preset, players, rules_file, variants, dealer, seat, hand, turnup,
                   play, score, dead, trump=None):
    """The position of ``advise``: POSITION.json (``path``) or the position flags.

    ``--score`` (the game's state before the hand, not the deal's) goes with a file too and
    overrides its ``score``; the flags of the deal itself (dealer, seat, hand, turn-up,
    play, dead, trump) and the rules flags are refused beside a file, each one named."""
    from .position import Position
    from .inputs import read_json_object
    deal_flags = {"dealer": dealer, "seat": seat, "hand": hand, "turnup": turnup,
                  "play": play, "dead": dead, "trump": trump}
    if path is not None:
        clash = [f"--{name}" for name, v in deal_flags.items() if v is not None]
        if clash:
            raise CatchTenError("position", "file and flags",
                                f"{', '.join(clash)}: POSITION.json has the position; give "
                                "it by file or by flags, not both (--score may go with it)")
        # the file carries its own rules: a rules flag beside it would be ignored
        for flag in given("preset", "players", "rules_file", "variants"):
            raise CatchTenError(flag, "file and flags",
                                f"POSITION.json has the rules; drop --{flag}")
        data = read_json_object(path, "position")     # "-": standard input
        if score is not None:
            data["score"] = score_flag(score)
        return Position.from_dict(data)
    from .rules import Rules
    rules = Rules.from_options(preset, players, variants, rules_file)
    # the turn-up, or the declared trump: which one the rules need is the position's check
    # (Rules.deal_trump: "turnup: missing", or "trump: missing" with dealer_declares)
    for name, v in (("dealer", dealer), ("seat", seat), ("hand", hand)):
        if v is None:
            raise CatchTenError(name, "missing", f"--{name} is required (or give POSITION.json)")
    data = {"dealer": dealer, "seat": seat, "hand": cards_flag(hand), "turnup": turnup,
            "play": cards_flag(play), "dead": cards_flag(dead), "trump": trump}
    if score is not None:
        data["score"] = score_flag(score)
    return Position.from_dict(data, rules)


def score_flag(score: str) -> list[int]:
    """``--score "30 28"`` (or ``"30,28"``): a whole number a side, in side order."""
    words = score.replace(",", " ").split()
    if not all(re.fullmatch(r"-?[0-9]+", w) for w in words):    # plain ASCII digits
        raise CatchTenError("score", "bad score",
                            f"{json.dumps(score, ensure_ascii=False)}: a whole number a "
                            "side, e.g. \"30 28\"")
    return [int(w) for w in words]
