"""The ``catchten`` command line: thin, calls the public API only (DESIGN.md §1).

Bad input prints one line ``error: FIELD: WHY (detail)`` on stderr and exits 2; other
failures exit 1; never a traceback.
"""
from __future__ import annotations

import gc
import json
import os
import re
import sys
import time
from contextlib import contextmanager
from typing import Any
from collections.abc import Iterator

import click

from .errors import CatchTenError
from .policies import POLICY_NAMES
from .rules import PRESETS, Rules


# ---------------------------------------------------------------------------- plumbing
#: the line of a Ctrl-C before anything finished (a command with finished work prints it,
#: marked partial, instead)
INTERRUPTED_EMPTY = ("error: interrupted (Ctrl-C) before the first batch finished: nothing "
                     "to show")


def _interrupted_line() -> str:
    """The line of a Ctrl-C that reached the command line with nothing printed: with a run
    directory, where the finished chunks are and how to go on."""
    from .runner import LAST_RUN_DIR
    if LAST_RUN_DIR is not None:
        return (f"error: interrupted (Ctrl-C) before the results were printed; the finished "
                f"chunks are kept in {LAST_RUN_DIR}: catchten resume {LAST_RUN_DIR} "
                "finishes the run and prints them")
    return INTERRUPTED_EMPTY


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class CatchtenGroup(click.Group):
    """A click group whose errors are one line and exit 2 (usage) or 1 (failure)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):  # noqa: D401
        from . import runner
        from .compile_notice import compile_notice
        from .runner import notices
        runner.LAST_RUN_DIR = None      # a Ctrl-C names this command's run directory only
        try:
            with compile_notice(lambda msg: click.echo(msg, err=True)), \
                    notices(lambda msg: click.echo(msg, err=True)):
                rv = super().main(args=args, prog_name=prog_name or "catchten",
                                  complete_var=complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            if _json_wanted(args):
                _usage_error_json(exc)
            hint = ""
            if exc.ctx is not None and exc.ctx.command is not None:
                hint = f" (see: catchten {exc.ctx.command.name} --help)" \
                    if exc.ctx.command is not self else " (see: catchten --help)"
            click.echo(f"error: {_one_line(exc.format_message())}{hint}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            click.echo(f"error: {_one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code if exc.exit_code else 1)
        except CatchTenError as exc:
            # bad input: 2; a failure on good input (a solve beyond its budget): 1
            status = exc.exit_status
            if _json_wanted(args):
                click.echo(json.dumps(exc.to_dict(), ensure_ascii=False))
                sys.exit(status)
            click.echo(f"error: {_one_line(exc.line())}", err=True)
            sys.exit(status)
        except click.Abort as exc:
            # click turns a Ctrl-C into Abort; it reaches here only when the command had
            # nothing finished to show (finished work is returned, marked partial)
            if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
                click.echo(_interrupted_line(), err=True)
            else:
                click.echo("error: aborted", err=True)
            sys.exit(130)
        except KeyboardInterrupt:
            click.echo(_interrupted_line(), err=True)
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
            click.echo(f"error: internal error: {type(exc).__name__}: {_one_line(exc)} "
                       "(please report it)", err=True)
            sys.exit(1)
        if isinstance(rv, int) and not isinstance(rv, bool):
            sys.exit(rv)
        sys.exit(0)


def options(*decorators):
    """The click decorators ``decorators`` as one, in the order listed (the order
    ``--help`` shows them)."""
    def deco(f):
        for d in reversed(decorators):
            f = d(f)
        return f
    return deco


# options several commands share (a click.option decorator makes a new Option at each use)
PROGRESS_OPTION = click.option(
    "--progress/--no-progress", default=None,
    help="Progress bar on stderr (default: when stderr is a terminal).")
JSON_OPTION = click.option("--json", "as_json", is_flag=True, help="Print JSON (errors too).")
RESULT_JSON_OPTION = click.option("--json", "as_json", is_flag=True,
                                  help="Print the result as JSON.")
DEAD_OPTION = click.option("--dead", type=str, default=None, metavar="\"CARDS\"",
                           help="Cards laid aside (keep_six_of_spades).")


def turnup_option(required: bool):
    """``--turnup`` (``advise`` takes it or a position file; ``odds`` needs it)."""
    return click.option("--turnup", type=str, default=None, required=required,
                        help="The turned-up card.")


class PathName(click.Path):
    """``click.Path`` that refuses an empty name (``--out ""`` would otherwise mean "no
    output" or the current directory, silently)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("empty name", param, ctx)
        return super().convert(value, param, ctx)


def _given(*names: str) -> list[str]:
    """The parameters of the running command among ``names`` (their Python names) that the
    user gave, on the command line or from the environment, as the flags' names without
    the dashes (``preset`` -> ``rules``, ``variants`` -> ``variant``), for error fields."""
    ctx = click.get_current_context()
    flags = {p.name: max(p.opts, key=len).lstrip("-") for p in ctx.command.params}
    return [flags[n] for n in names
            if ctx.get_parameter_source(n) not in (None, click.core.ParameterSource.DEFAULT)]


def _check_force(force: bool, report_dir: str | None) -> None:
    """``--force`` means something only with ``--report``."""
    if force and report_dir is None:
        raise CatchTenError("force", "only with --report", "--force lets --report write "
                            "into a directory that already holds files")


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


def play_options(whose: str):
    """``--policy``, ``--opponents``, ``--seed`` and ``--threads``, shared by every command
    that plays deals (``whose``: whose policy ``--policy`` sets)."""
    def deco(f):
        f = click.option("--threads", "-t", type=int, default=None,
                         help="Threads (default: all cores); results do not depend on it.")(f)
        f = click.option("--seed", "-s", type=int, default=1, show_default=True,
                         help="Random seed (0 to 2**64-1); results depend only on it.")(f)
        f = click.option("--opponents", type=str, default=None,
                         help="Policy of the other sides (default: the same as --policy).")(f)
        f = click.option("--policy", "-p", type=str, default="heuristic", show_default=True,
                         help=f"Policy of {whose}: {', '.join(POLICY_NAMES)}.")(f)
        return f
    return deco


def run_options(f):
    """``--run-dir``, ``--scheduler``, ``--workers`` and ``--chunk``: where a long run keeps
    its finished chunks and where it runs (:mod:`catchten_sim.runner`)."""
    f = click.option("--chunk", type=int, default=None,
                     help="Deals (games) per chunk (the unit of work and of --run-dir files); "
                          "results do not depend on it.")(f)
    return run_dir_options(f)


def run_dir_options(f):
    """``--run-dir``, ``--scheduler`` and ``--workers`` (:func:`run_options` without
    ``--chunk``, for runs whose chunks are fixed by their own plan)."""
    f = click.option("--workers", type=int, default=None,
                     help="Run on a local Dask cluster of N single-threaded processes "
                          '(pip install -e ".[cluster]").')(f)
    f = click.option("--scheduler", type=str, default=None, metavar="tcp://HOST:PORT",
                     help="Run on a running Dask cluster (`dask scheduler`, `dask worker`); "
                          "same numbers as a local run.")(f)
    f = click.option("--run-dir", type=PathName(file_okay=False), default=None,
                     metavar="DIR",
                     help="Keep every finished chunk in DIR (Parquet) with a manifest: a "
                          "killed run loses only chunks in flight; `catchten resume DIR` "
                          "finishes it, `catchten summarize DIR` reads it.")(f)
    return f


def make_rules(preset: str | None, players: int | None, variants: tuple[str, ...],
               rules_file: str | None) -> Rules:
    return Rules.from_options(preset, players, variants, rules_file)


def _json_wanted(args: Any) -> bool:
    """True when the command line asks for ``--json`` (then even errors that click finds
    before a command runs are printed as the docs/formats.md error object)."""
    words = sys.argv[1:] if args is None else list(args)
    return "--json" in words


def _usage_error_json(exc: click.UsageError) -> None:
    """A click usage error (bad option value, missing option, unknown option) as the
    docs/formats.md error object on one line of stdout; exit 2."""
    param = getattr(exc, "param", None)
    field = None
    if param is not None and getattr(param, "name", None):
        field = str(param.name).replace("_", "-")
    kind = type(exc).__name__
    why = {"BadParameter": "bad option value", "MissingParameter": "missing option",
           "NoSuchOption": "unknown option", "BadOptionUsage": "bad option value",
           "BadArgumentUsage": "bad argument"}.get(kind, "usage error")
    click.echo(json.dumps({"kind": "error", "field": field, "why": why,
                           "detail": _one_line(exc.format_message())}, ensure_ascii=False))
    sys.exit(2)


@contextmanager
def _errors_as_json(as_json: bool) -> Iterator[None]:
    """With ``--json``, a bad-input error is printed as the docs/formats.md error object on one
    line of stdout (exit 2); without it, it reaches the one-line stderr handler."""
    try:
        yield
    except CatchTenError as exc:
        if as_json:
            click.echo(json.dumps(exc.to_dict(), ensure_ascii=False))
            sys.exit(exc.exit_status)
        raise
    except KeyboardInterrupt:
        if as_json:
            click.echo(json.dumps({"kind": "error", "field": None, "why": "interrupted",
                                   "detail": _interrupted_line().split(": ", 1)[1]}))
            sys.exit(130)
        raise


def _emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False))


# ---------------------------------------------------------------------------- commands
@click.group(cls=CatchtenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="catchten_sim", prog_name="catchten")
def cli() -> None:
    """Catch the Ten (Scotch Whist): simulate, score and advise.

    \b
    catchten simulate                 1,000,000 4-player deals, the headline odds
    catchten rules --players 5        what the rules are, resolved
    catchten score RECORD.json        score a hand or game record
    catchten advise POSITION.json     which card to play, every legal card evaluated
    catchten solve RECORD.json        double-dummy value of every card
    catchten match heuristic random   is strategy A better than B? (duplicate match)
    catchten report                   simulate and write a PDF/PNG/CSV report

    Input files (hand and game records, positions): docs/formats.md.
    """


@cli.command("rules")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--switches", is_flag=True,
              help="List the preset's rule switches: values, default, where each applies, "
                   "its docs/rules.md section.")
def rules_cmd(preset, players, rules_file, variants, as_json, switches):
    """Print the resolved rules: deck, seats and sides, shares, honours, trump order,
    dealing, target, tie and revoke rules."""
    rules = make_rules(preset, players, variants, rules_file)
    if switches:
        for flag in _given("players", "variants", "rules_file"):
            raise CatchTenError(flag, "not with --switches",
                                "the switch table lists each switch's default for the preset; "
                                f"without --switches, catchten rules --{flag} ... shows the "
                                "rules in effect")
        from .rules import spell_value, switch_table
        table = switch_table(rules.preset)
        if as_json:
            _emit_json(table)
            return
        for row in table:
            values = row["values"] if isinstance(row["values"], str) else \
                "|".join(spell_value(v) for v in row["values"])
            click.echo(f"{row['name']:22s} {values:30s} default "
                       f"{spell_value(row['default']):12s}"
                       f" {row['section']:17s} {row['applies']}: {row['text']}")
        return
    d = rules.describe()
    if as_json:
        _emit_json(d)
        return
    from .report_text import print_rules
    print_rules(d)


@cli.command("simulate")
@rules_options
@play_options("side 0 (seat 0 and partners)")
@click.option("--deals", "-d", type=int, default=1_000_000, show_default=True,
              help="Number of deals to simulate.")
@click.option("--seat-policy", "seat_policies", multiple=True, metavar="SEAT=POLICY",
              help="Policy of one seat, e.g. 2=random (repeatable).")
@RESULT_JSON_OPTION
@click.option("--out", "out_path", type=PathName(dir_okay=False), default=None,
              help="Also write one row per deal to FILE (.csv or .parquet).")
@PROGRESS_OPTION
@click.option("--report", "report_dir", type=PathName(file_okay=False), default=None,
              metavar="DIR",
              help="Also write a report of this run to DIR (PDF, PNGs, CSVs, JSON; with "
                   "the player-count, variants and policy sweeps, as `catchten report`).")
@click.option("--force", is_flag=True,
              help="With --report: write into DIR even if it already holds files.")
@click.option("--games", "-g", type=int, default=None,
              help="Play N whole games to the target instead of deals: P(win) by who dealt "
                   "first, hands per game, how often the count-out order decided.")
@click.option("--first-dealer", type=str, default=None,
              help="With --games: rotate (game g: seat g mod n; the default), random, or a "
                   "seat number.")
@run_options
def simulate_cmd(preset, players, rules_file, variants, deals, seed, policy, opponents,
                 seat_policies, threads, as_json, out_path, progress, report_dir, force,
                 games, first_dealer, run_dir, scheduler, workers, chunk):
    """Simulate DEALS deals and print the odds: P(Ten caught) with its 95% interval, and
    each position's expected honours, card points and hand total. With --games N: whole
    games to the target."""
    from pathlib import Path
    from .policies import seat_policies as make_policies
    from .simulate import DealWriter, simulate
    rules = make_rules(preset, players, variants, rules_file)
    overrides: dict[int, str] = {}
    for item in seat_policies:
        seat, sep, pol = item.partition("=")
        if not sep or not seat.strip().isdigit():
            raise CatchTenError("seat-policy", "expected SEAT=POLICY", repr(item))
        if int(seat) in overrides and overrides[int(seat)].strip() != pol.strip():
            raise CatchTenError("seat-policy", "given twice",
                                f"seat {int(seat)}: {overrides[int(seat)]} and {pol}")
        overrides[int(seat)] = pol
    pols = make_policies(rules, policy, opponents, overrides)
    if games is None and first_dealer is not None:
        raise CatchTenError("first-dealer", "only with --games",
                            "who deals first is a setting of whole games")
    _check_force(force, report_dir)
    if games is not None:
        if out_path or report_dir:
            raise CatchTenError("games", "not with --out/--report",
                                "--games prints game results only")
        if _given("deals"):
            raise CatchTenError("deals", "not with --games",
                                "--games N plays N whole games, each as many deals as it takes")
        from .games import simulate_games
        from .checks import MAX_DEALS, check_count
        games = check_count("games", games, 1, MAX_DEALS)
        fd = "rotate" if first_dealer is None else first_dealer.strip()
        show = sys.stderr.isatty() if progress is None else progress
        bar = _Progress(games, "games") if show else None
        try:
            gres = simulate_games(rules, pols, n_games=games, seed=seed, threads=threads,
                                  first_dealer=int(fd) if fd.lstrip("-").isdigit() else fd,
                                  run_dir=run_dir, scheduler=scheduler, workers=workers,
                                  progress=bar.update if bar else None,
                                  **({"chunk": chunk} if chunk is not None else {}))
        finally:
            if bar:
                bar.close()
        return _print_games(gres, games, as_json, run_dir)
    if report_dir is not None:
        from .report import MIN_REPORT_DEALS, prepare_out_dir
        from .checks import check_count
        prepare_out_dir(report_dir, force, "report")   # fail before simulating, not after
        check_count("deals", deals, MIN_REPORT_DEALS)
    writer = DealWriter(out_path, rules.players) if out_path else None
    show = sys.stderr.isatty() if progress is None else progress
    bar = _Progress(deals) if show else None
    try:
        res = simulate(rules, pols, n_deals=deals, seed=seed, threads=threads,
                       on_chunk=writer, progress=bar.update if bar else None,
                       run_dir=run_dir, scheduler=scheduler, workers=workers,
                       **({"outputs": {"report": str(Path(report_dir).resolve())}}
                          if run_dir and report_dir else {}),
                       **({"chunk": chunk} if chunk is not None else {}))
    finally:
        if bar:
            bar.close()
        if writer:
            writer.close()
    _print_result(res, as_json, run_dir)
    if report_dir is not None:
        import time

        from .report import build_report
        t0 = time.perf_counter()
        rep = build_report(rules, pols, n_deals=res.n_deals, seed=seed, out_dir=report_dir,
                           threads=threads, main=res, force=True,
                           progress=_say if show else None)
        # the header's time is the main run's: the report's sweeps and figures come on top
        click.echo(f"report: {len(rep.files)} files written to {rep.out_dir} in "
                   f"{time.perf_counter() - t0:.1f} s (its sweep runs and figures)", err=True)
    if res.interrupted:
        return 130          # like report, advise and odds: a script can tell it was cut short
    return None


def _short_of(why: str, done: str, run_dir) -> int | None:
    """Say on stderr why a run is short of what was asked (``why``: ``interrupted``,
    ``unfinished`` (a summary) or ``time limit``) and how to finish it; exit 130 when
    interrupted."""
    click.echo(f"{why}: {done}; the numbers above are for those"
               + (f"; finish with: catchten resume {run_dir}" if run_dir else ""), err=True)
    return 130 if why == "interrupted" else None


def _print_games(gres, games: int, as_json: bool, run_dir, why: str = "interrupted",
                 printed: bool = False) -> int | None:
    """Print a games result (``printed``: its JSON is out already); short of the games
    asked for: say so (:func:`_short_of`)."""
    if as_json:
        if not printed:
            _emit_json({**gres.to_dict(), "interrupted": gres.interrupted})
    else:
        click.echo(gres.to_text())
    if gres.interrupted:
        return _short_of(why, f"{gres.n_games:,} of {games:,} games played", run_dir)
    return None


def _print_result(res, as_json: bool, run_dir, why: str = "interrupted",
                  printed: bool = False) -> int | None:
    """Print a simulation result (``printed``: its JSON is out already); when it is short
    of the deals asked for, say so on stderr (:func:`_short_of`)."""
    if as_json:
        if not printed:
            _emit_json(res.to_dict())
    else:
        from .report_text import print_simulation
        print_simulation(res)
    if res.interrupted:
        return _short_of(why, f"{res.n_deals:,} of {res.requested:,} deals simulated",
                         run_dir)
    return None


@cli.command("resume")
@click.argument("run_dir", metavar="DIR", type=PathName(file_okay=False))
@click.option("--threads", "-t", type=int, default=None,
              help="Threads (default: all cores); results do not depend on it.")
@click.option("--scheduler", type=str, default=None, metavar="tcp://HOST:PORT",
              help="Run the remaining chunks on a running Dask cluster.")
@click.option("--workers", type=int, default=None,
              help="Run the remaining chunks on a local Dask cluster of N processes.")
@click.option("--time", "time_limit", type=float, default=None, metavar="SECONDS",
              help="Stop after the chunk that ends past this many seconds; the run "
                   "directory stays resumable (a match or equity run: their own --time).")
@RESULT_JSON_OPTION
@PROGRESS_OPTION
def resume_cmd(run_dir, threads, scheduler, workers, time_limit, as_json, progress):
    """Finish the run in DIR (made by simulate, simulate --games, equity, match or report
    with --run-dir): run only the chunks not yet written there. The numbers equal those of
    an uninterrupted run with the same seed; with --time, those of the chunks done, and
    another resume goes on from there."""
    from .runner import check_seconds, open_any, time_limit as limit_runs
    if time_limit is not None:
        check_seconds(time_limit)
    rd, finish = open_any(run_dir)
    kind = rd.manifest["kind"]
    show = sys.stderr.isatty() if progress is None else progress
    opts = {"threads": threads, "scheduler": scheduler, "workers": workers}
    if kind == "report":
        if time_limit is not None:
            raise CatchTenError("time", "not for a report run directory",
                                "a report is built once its runs are whole; resume it "
                                "without --time")
        from .report import files_state
        current, why = files_state(rd)
        out = rd.manifest.get("out")
        if current:
            _check_run_options(threads, scheduler, workers)
            click.echo(f"{run_dir}: the report is already finished and its files in {out} "
                       "are newer than its runs: nothing to run or draw (delete "
                       f"{os.path.join(str(out), 'report.json')} to draw them again)",
                       err=True)
            return None
        if why:
            click.echo(f"{run_dir}: every run is finished; drawing the report again "
                       f"({why})", err=True)
        rep = finish(rd, progress=_say if show else None, **opts)
        click.echo(f"{rep.out_dir}: report finished from {run_dir}", err=True)
        return 130 if rep.sidecar.get("interrupted") else None
    # a match and an equity table stop for time by their own rules (a match's stop "time";
    # the equity table's simulation at 0.4 of it); the others at the runner's deadline
    native = kind in ("match", "equity")
    if native and time_limit is not None:
        opts["time_limit"] = time_limit
    # a finished run: nothing runs; its result is printed as `summarize` prints it (the
    # run's own times and executors, not those of this read)
    done = rd.complete()
    if done:
        _check_run_options(threads, scheduler, workers)
    bar = _Progress(int(rd.manifest["deals"]), "games" if kind == "games" else "deals") \
        if show and not done else None
    lim = None
    try:
        if done:
            rd.compute = False
            res = finish(rd)
        else:
            with limit_runs(None if native else time_limit) as lim:
                res = finish(rd, progress=bar.update if bar else None, **opts)
    finally:
        if bar:
            bar.close()
    if not done and kind == "match" and rd.ran == 0 and res.stop in FINISHED_MATCH:
        done = True                  # it had stopped at a look before its last chunk
        rd.compute = False
        res = finish(rd)
    if done:
        click.echo(f"{run_dir}: the run is already finished (nothing to run); its result:",
                   err=True)
    files: dict = {}
    outputs = rd.manifest.get("outputs") or {}
    if kind == "equity" and outputs.get("out"):      # the files the command asked for
        files = _write_equity(res, {}, outputs["out"], bool(outputs.get("plot")))
    if kind == "match" and outputs.get("report"):
        from .report import prepare_out_dir
        prepare_out_dir(outputs["report"], force=True)
        files = {"report": _write_match_report(res, outputs["report"])}
    code = _print_run(kind, res, as_json, run_dir, rd, summary=done,
                      timed_out=lim is not None and lim.hit, files=files)
    if kind == "simulate" and outputs.get("report") and not res.interrupted:
        from .report import report_state
        m = rd.manifest
        current, why = report_state(outputs["report"],
                                    {k: m.get(k) for k in ("rules", "seed", "deals")}, [rd],
                                    every_run=False)
        if current:
            click.echo(f"report: {outputs['report']} is newer than the run's chunks: not "
                       "made again", err=True)
            return code
        if why and done:
            click.echo(f"report: making it again ({why})", err=True)
        # simulate --report DIR: the report of the whole run (its sweeps run again)
        from .report import build_report
        rep = build_report(res.rules, res.policies, n_deals=res.n_deals, seed=res.seed,
                           out_dir=outputs["report"], threads=threads, main=res, force=True,
                           progress=_say if show else None)
        click.echo(f"report: {len(rep.files)} files written to {rep.out_dir}", err=True)
    return code


def _check_run_options(threads, scheduler, workers) -> None:
    """Refuse bad --threads/--scheduler/--workers of a resume that runs nothing (a run
    checks them when it starts): bad input is exit 2 either way."""
    from .runner import check_executor_options
    from .checks import check_threads
    if threads is not None:
        check_threads(threads)
    check_executor_options(scheduler, workers)


#: a match's stops that end it (a resume has nothing left to run)
FINISHED_MATCH = ("separated", "precision", "deals")


#: fields of a result that describe the session that made it (its executor, its clock):
#: left out of ``catchten summarize --json`` (with ``--sessions`` it gives ``compute_s``, the
#: run's sessions' compute time, and ``run_on``, where they ran, instead)
SUMMARY_DROPS = ("threads", "elapsed_s", "compile_s", "deals_per_s", "games_per_s",
                 "simulation_s", "dp_s")


def _print_run(kind: str, res, as_json: bool, run_dir, rd, summary: bool,
               timed_out: bool = False, files: dict | None = None,
               sessions: bool = False) -> int | None:
    """Print the result of a run directory of any kind (resume, summarize; a summary says
    where the chunks ran: ``run on:``, or ``run_on`` in JSON; ``timed_out``: a resume that
    stopped at its time limit, said as such, not as an interruption; ``files``: the files
    written, by type)."""
    files = files or {}
    if as_json:
        d = {**res.to_dict(), "interrupted": res.interrupted} if kind == "games" else \
            _with_start(res, {**res.to_dict(), **files}) if kind == "equity" else \
            {**res.to_dict(), **files}
        if summary:
            # the same bytes on every read: no timings of the read, the run's own instead
            for k in SUMMARY_DROPS:
                d.pop(k, None)
            if sessions:        # how the run went, not part of its result
                d["compute_s"] = rd.compute_seconds()
                d["run_on"] = rd.sessions()
        _emit_json(d)
    why = "unfinished" if summary else "time limit" if timed_out else "interrupted"
    if kind == "simulate":
        code = _print_result(res, as_json, run_dir, why, printed=as_json)
    elif kind == "games":
        code = _print_games(res, int(rd.manifest["deals"]), as_json, run_dir, why,
                            printed=as_json)
    elif kind == "equity":
        code = _print_equity(res, {**res.to_dict(), **files}, as_json, run_dir,
                             printed=as_json)
    else:
        code = _print_match(res, {**res.to_dict(), **files}, as_json, run_dir,
                            report_dir=(rd.manifest.get("outputs") or {}).get("report")
                            if files else None, printed=as_json)
    if summary and not as_json:
        click.echo(f"run on: {rd.executors_text()}")
    return code


@cli.command("summarize")
@click.argument("run_dir", metavar="DIR", type=PathName(file_okay=False))
@RESULT_JSON_OPTION
@click.option("--sessions", is_flag=True,
              help="With --json: add compute_s and run_on (where and how long each session "
                   "ran; without it the JSON is the result alone, the same bytes for a "
                   "resumed run as for an uninterrupted one).")
def summarize_cmd(run_dir, as_json, sessions):
    """Print the result of the run in DIR from the chunks written there, without running
    anything (a run still going, or stopped, shows what finished so far)."""
    from .runner import open_any
    rd, finish = open_any(run_dir, compute=False)
    kind = rd.manifest["kind"]
    if kind == "report":
        from .report import runs_status
        runs = runs_status(rd)
        if as_json:
            _emit_json({"kind": "report", "out": rd.manifest.get("out"), "runs": runs})
            return None
        click.echo(f"report run directory {run_dir} (report files: {rd.manifest.get('out')})")
        for r in runs:
            req = f"{r['requested']:,}" if r["requested"] else "?"
            click.echo(f"  {r['part']:<14s} {r['deals']:>12,} of {req:>12s} deals  "
                       f"{r['rules']}; {r['policies']}")
        click.echo(f"finish (or rebuild the report files) with: catchten resume {run_dir}")
        return None
    return _print_run(kind, finish(rd), as_json, run_dir, rd, summary=True,
                      sessions=sessions)


def _say(msg: str) -> None:
    click.echo(f"  {msg}", err=True)


@cli.command("report")
@rules_options
@play_options("side 0 (seat 0 and partners)")
@click.option("--deals", "-d", type=int, default=1_000_000, show_default=True,
              help="Deals of the main run; each sweep run uses a fifth (at least 1,000).")
@click.option("--sweep-deals", type=int, default=None,
              help="Deals per sweep run (default: a fifth of --deals, at least 1,000).")
@click.option("--out", "out_dir", type=PathName(file_okay=False), default=None,
              metavar="DIR",
              help="Directory to write (default: a new report-PRESET-Np/ in the working "
                   "directory). Only its last level is created.")
@click.option("--force", is_flag=True,
              help="Write into --out even if it already holds files (the earlier report "
                   "files there are replaced).")
@click.option("--format", "formats", type=str, default="pdf,png", show_default=True,
              help="Figure formats, comma-separated: pdf (one multi-page file), png "
                   "(one per figure, 150 dpi). CSVs and report.json are always written.")
@click.option("--sweep-players/--no-sweep-players", default=True, show_default=True,
              help="Run P(Ten caught) for every player count the preset allows.")
@click.option("--sweep-variants/--no-sweep-variants", default=True, show_default=True,
              help="Run the other presets and each switch that changes a deal.")
@click.option("--compare-policies/--no-compare-policies", default=True, show_default=True,
              help="Run heuristic and random play against each other.")
@click.option("--progress/--no-progress", default=None,
              help="Say what is running on stderr (default: when stderr is a terminal).")
@click.option("--from", "from_dir", type=PathName(file_okay=False), default=None,
              metavar="DIR",
              help="Take the main run from a run directory (simulate --run-dir) instead of "
                   "simulating it: its rules, policies, seed and finished deals.")
@run_options
def report_cmd(preset, players, rules_file, variants, deals, sweep_deals, seed, policy,
               opponents, threads, out_dir, force, formats, sweep_players, sweep_variants,
               compare_policies, progress, from_dir, run_dir, scheduler, workers, chunk):
    """Simulate and write a report: one multi-page PDF, a PNG per figure, the numbers
    behind every figure as CSV and a JSON sidecar (rules, policies, deals, seed, versions).

    \b
    Figures: headline numbers and rules; P(Ten caught) by player count; a side's points;
    seat advantage by position; convergence; the Ten's fate by its holder's position and
    trumps; the value of a holding; rule variants compared; policies compared.
    """
    from .report import build_report, parse_formats
    from .policies import seat_policies as make_policies
    fmts = parse_formats(formats)
    main = None
    if from_dir is not None:
        for flag in _given("preset", "players", "rules_file", "variants"):
            raise CatchTenError(flag, "not with --from",
                                "the rules of the main run are those of the run directory")
        for flag in _given("policy", "opponents", "seed", "deals", "run_dir"):
            raise CatchTenError(flag, "not with --from", "the main run's deals are the run "
                                "directory's; --sweep-deals sets the sweeps'" if flag == "deals"
                                else f"the main run's {flag} is the run directory's")
        from .simulate import summarize
        try:
            main = summarize(from_dir)
        except CatchTenError as e:      # its errors name the directory: here, --from
            raise CatchTenError("from", e.why, e.detail) from None
        rules, pols = main.rules, main.policies
    else:
        rules = make_rules(preset, players, variants, rules_file)
        pols = make_policies(rules, policy, opponents)
    show = sys.stderr.isatty() if progress is None else progress
    rep = build_report(rules, pols, n_deals=deals, seed=seed, out_dir=out_dir, formats=fmts,
                       sweep_players=sweep_players, sweep_variants=sweep_variants,
                       compare_policies=compare_policies, sweep_deals=sweep_deals,
                       threads=threads, force=force, progress=_say if show else None,
                       main=main, run_dir=run_dir, scheduler=scheduler, workers=workers,
                       chunk=chunk, unfinished_from=from_dir)
    click.echo(f"{rep.out_dir}: " + ", ".join(p.name for p in rep.files
                                              if p.suffix in (".pdf", ".json"))
               + f" and {sum(p.suffix == '.png' for p in rep.files)} PNG, "
               f"{sum(p.suffix == '.csv' for p in rep.files)} CSV files")
    if rep.sidecar.get("interrupted"):
        click.echo(f"interrupted after {rep.sidecar['interrupted_after_deals']:,} deals in all "
                   "(main run and sweeps): the "
                   "report shows what ran and says so on every figure"
                   + (f"; finish with: catchten resume {run_dir}" if run_dir else ""), err=True)
        return 130
    if rep.sidecar.get("unfinished_from"):
        click.echo(f"unfinished: the run in {from_dir} has {main.n_deals:,} of "
                   f"{main.requested:,} deals; the report shows those and says so; finish "
                   f"the run with: catchten resume {from_dir}", err=True)


class _Progress:
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


@cli.command("score")
@click.argument("record", type=PathName(dir_okay=False, allow_dash=True))
@JSON_OPTION
def score_cmd(record, as_json):
    """Score a hand record or a game record (JSON, docs/formats.md): tricks, honours, card
    points, the Ten's fate, revokes; for games the running totals and the winner."""
    from . import records
    with _errors_as_json(as_json):
        data = records.load_record(record)
        result = records.score_any(data)
    if as_json:
        _emit_json(result)
    else:
        from .report_text import print_score
        print_score(result)


@cli.command("solve")
@click.argument("records", nargs=-1, required=True, metavar="RECORD...",
                type=PathName(dir_okay=False, allow_dash=True))
@click.option("--line", "with_line", is_flag=True,
              help="Also show one optimal line of play to the end of the deal.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record and line.")
def solve_cmd(records, with_line, as_json):
    """Double-dummy values (all hands visible, best play by all) of the position where each
    hand record's play stops: every legal card's final score difference for the deal (the
    mover's side minus the others), the best card(s) and, with --line, an optimal line.

    Each RECORD is a hand record (docs/formats.md "Hand record": every seat's cards, the
    turn-up, the play so far; - for stdin), e.g. tests/cases/dd/*.json. A bad record gets
    its error line and the others are still solved (exit 2 at the end; 1 when a position
    was only too hard: beyond the solver's node budget)."""
    from . import records as rec_mod
    from .solve import format_solution, solve
    with _errors_as_json(as_json):       # Ctrl-C: the JSON "interrupted" object with --json
        failed = 0
        for path in records:
            try:
                data = rec_mod.load_record(path)
                sol = solve(data, line=with_line)
            except CatchTenError as exc:
                # a bad record gets its one line and the others are still solved; exit 2 at
                # the end (with --json the error object takes the record's line); 1 when
                # the only failures are solves beyond the node budget
                failed = max(failed, exc.exit_status)
                if as_json:
                    click.echo(json.dumps(exc.to_dict(), ensure_ascii=False))
                else:
                    where = f"{path}: " if len(records) > 1 else ""
                    click.echo(f"error: {where}{_one_line(exc.line())}", err=True)
                continue
            if as_json:
                click.echo(json.dumps(sol.to_dict(), ensure_ascii=False))
            else:
                if len(records) > 1:
                    click.echo(f"== {path}")
                click.echo(format_solution(sol, data))
    return failed or None


# ---------------------------------------------------------------------------- advise / odds
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
                 help="Each side's game score before this hand, side order."),
    click.option("--trump", type=str, default=None, metavar="S|H|D|C|NT",
                 help="The trump the dealer declared (jaques dealer_declares, which has no "
                      "turn-up: give --trump instead of --turnup)."))


def _cards_flag(text):
    return [] if text is None else text.replace(",", " ").split()


def _load_position(path, preset, players, rules_file, variants, dealer, seat, hand, turnup,
                   play, score, dead, trump=None):
    from .position import Position
    flags = any(x is not None for x in (dealer, seat, hand, turnup, play, score, dead, trump))
    if path is not None:
        if flags:
            raise CatchTenError("position", "file and flags",
                                "give POSITION.json or the position flags, not both")
        # the file carries its own rules: a rules flag beside it would be ignored
        for flag in _given("preset", "players", "rules_file", "variants"):
            raise CatchTenError(flag, "file and flags",
                                f"--{flag}: the position file gives the rules (its "
                                "rules, players and variants); leave the flag out")
        return Position.from_json(path)   # "-": standard input
    rules = make_rules(preset, players, variants, rules_file)
    # the turn-up, or the declared trump: which one the rules need is the position's check
    # (Rules.deal_trump: "turnup: missing", or "trump: missing" with dealer_declares)
    for name, v in (("dealer", dealer), ("seat", seat), ("hand", hand)):
        if v is None:
            raise CatchTenError(name, "missing", f"--{name} is required (or give POSITION.json)")
    data = {"dealer": dealer, "seat": seat, "hand": _cards_flag(hand), "turnup": turnup,
            "play": _cards_flag(play), "dead": _cards_flag(dead), "trump": trump}
    if score is not None:
        words = score.replace(",", " ").split()
        if not all(re.fullmatch(r"-?[0-9]+", w) for w in words):    # plain ASCII digits
            raise CatchTenError("score", "bad score",
                                f"{json.dumps(score, ensure_ascii=False)}: whole numbers, "
                                "one per side, e.g. --score \"30 28\"")
        data["score"] = [int(w) for w in words]
    return Position.from_dict(data, rules)


@cli.command("advise")
@click.argument("position", required=False, type=PathName(dir_okay=False, allow_dash=True))
@rules_options
@play_options("your side in the rollouts")
@position_options
@click.option("--evaluator", type=str, default="rollout", show_default=True,
              help="How a deal is evaluated: rollout (the policies play it out after the "
                   "card) or dd (solved double-dummy: perfect play, all hands seen; the "
                   "heuristic rollouts run alongside and a MODEL line says when they "
                   "disagree).")
@click.option("--exact-max", type=int, default=None,
              help="Enumerate every consistent deal (an exact answer) when there are at "
                   "most this many (default 20000 with dd, 100000 with rollout; 0: always "
                   "sample).")
@click.option("--samples", type=int, default=20_000, show_default=True,
              help="At most this many sampled deals (every legal card is played on each).")
@click.option("--time", "time_limit", type=float, default=30.0, show_default=True,
              help="At most this many seconds.")
@click.option("--early-stop/--no-early-stop", "stop_early", default=True, show_default=True,
              help="Stop once the best card is separated from the second (or within the "
                   "practical margin of it) at 95%, with intervals valid under early "
                   "stopping; --no-early-stop runs all --samples (fixed-sample intervals).")
@click.option("--margin", type=float, default=None,
              help="Practical margin in the objective's units (default 0.25 points; 0.01 "
                   "for p_win): best two cards whose paired 95% interval lies inside "
                   "±margin are reported as 'no practical difference'.")
@PROGRESS_OPTION
@click.option("--objective", type=click.Choice(["diff", "points", "p_win"]), default=None,
              help="What 'best' means: p_win (default with --score: P(winning the game) "
                   "from the game-equity table), diff (our points minus the best opposing "
                   "side's; default without a score), or points.")
@click.option("--explain", "explain_n", type=int, default=None, is_flag=False,
              flag_value=3, metavar="[N]",
              help="Also print N sampled deals (default 3, at most 100) with the line played "
                   "after the recommended card.")
@JSON_OPTION
def advise_cmd(position, preset, players, rules_file, variants, dealer, seat, hand, turnup,
               play, score, trump, dead, policy, opponents, evaluator, exact_max, samples,
               time_limit, stop_early, margin, progress, objective, seed, threads, explain_n,
               as_json):
    """Which card to play: every legal card evaluated on the same sampled deals.

    POSITION is a docs/formats.md position JSON file (- for stdin), or give the position with
    flags, e.g.

    \b
    catchten advise --players 4 --dealer 3 --seat 0 --turnup 7S \\
        --hand "JS AS 9S KH QH 7D 8C 9C TC" --play ""

    For each card: our side's hand points, the point difference to the best opposing side,
    P(the Ten ends with us), P(we catch it), P(they catch ours), card points, with 95%
    intervals; the best card and its paired margin over the second; on lead with trumps,
    "lead a trump or not?". Sampling stops when the best card is separated from the second
    at 95% (or the two are within --margin), or at --samples / --time (the output says
    which); the intervals are then valid under early stopping (alpha spending over the
    planned looks). Ctrl-C prints what finished, marked partial (exit 130).
    """
    from .advise import MAX_EXPLAIN, advise, explain
    from .checks import check_count
    if explain_n is not None:           # before the advice is computed
        check_count("explain", explain_n, 1, MAX_EXPLAIN)
    show = sys.stderr.isatty() if progress is None else progress
    bar = _Progress(samples, "samples") if show and not as_json else None
    try:
        with _errors_as_json(as_json):
            pos = _load_position(position, preset, players, rules_file, variants, dealer,
                                 seat, hand, turnup, play, score, dead, trump)
            res = advise(pos, policy=policy, opponents=opponents, evaluator=evaluator,
                         samples=samples, time_limit=time_limit, seed=seed, threads=threads,
                         objective=objective, stop_early=stop_early, margin=margin,
                         exact_max=exact_max,
                         progress=bar.update if bar is not None else None)
            deals = explain(res, explain_n) if explain_n and not res.partial else None
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        d = res.to_dict()
        if deals is not None:
            d["explain"] = deals
        _emit_json(d)
    else:
        from .report_advise import print_advice, print_explain
        print_advice(res)
        if deals is not None:
            print_explain(res, deals)
    return 130 if res.partial else None


@cli.command("odds")
@rules_options
@play_options("your side")
@click.option("--hand", type=str, required=True, metavar="\"CARDS\"",
              help="Your cards at the deal (with six-card sets: your first set).")
@turnup_option(True)
@click.option("--seat", type=int, default=None,
              help="Your seat (0 … n-1); default: the eldest hand (left of the dealer).")
@click.option("--dealer", type=int, default=None,
              help="The dealer's seat; default n-1 (so seat 0 is eldest).")
@DEAD_OPTION
@click.option("--deals", "-d", type=int, default=20_000, show_default=True,
              help="Sampled deals consistent with your hand and the turn-up.")
@PROGRESS_OPTION
@JSON_OPTION
def odds_cmd(preset, players, rules_file, variants, hand, turnup, seat, dealer, dead, policy,
             opponents, deals, seed, threads, progress, as_json):
    """The odds of a hand at the deal, before any card is played: our side's hand points
    (distribution), P(our side ends with the Ten), P(we lose our Ten) when we hold it,
    expected card points, with 95% intervals. Ctrl-C prints the deals finished, marked
    partial (exit 130).
    """
    from .odds import odds
    from .cards import parse_card, parse_cards
    show = sys.stderr.isatty() if progress is None else progress
    bar = _Progress(deals if isinstance(deals, int) else 0) if show and not as_json else None
    try:
        with _errors_as_json(as_json):
            rules = make_rules(preset, players, variants, rules_file)
            n = rules.players
            if dealer is None:
                dealer = n - 1
            if seat is None:
                seat = (dealer + 1) % n if isinstance(dealer, int) and 0 <= dealer < n else 0
            res = odds(rules, parse_cards(_cards_flag(hand), "hand"),
                       parse_card(turnup, "turnup"), seat=seat, dealer=dealer,
                       dead=parse_cards(_cards_flag(dead), "dead"), policy=policy,
                       opponents=opponents, n_deals=deals, seed=seed, threads=threads,
                       progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        _emit_json(res.to_dict())
    else:
        from .report_advise import print_odds
        print_odds(res)
    return 130 if res.partial else None


# ---------------------------------------------------------------------------- match
@cli.command("match")
@click.argument("a")
@click.argument("b")
@rules_options
@click.option("--deals", "-d", type=int, default=100_000, show_default=True,
              help="Most deals, each played in every seating (rounded up to whole rounds "
                   "of one deal per dealer).")
@click.option("--seed", "-s", type=int, default=1, show_default=True,
              help="Random seed (0 to 2**64-1); results depend only on it.")
@click.option("--threads", "-t", type=int, default=None,
              help="Threads (default: all cores); results do not depend on it.")
@click.option("--time", "time_limit", type=float, default=None,
              help="Stop after this many seconds (whole chunks; a first run's one-time "
                   "compile of the engine not counted).")
@click.option("--precision", type=float, default=None,
              help="Stop at the first look whose 95% interval's half-width is at most this "
                   "many points per deal (not before, even when the interval excludes 0).")
@click.option("--pilot", type=int, default=None,
              help="Deals of the separate pilot set the control variate is fitted on "
                   "(0: none; default 2,000, or 0 when a side is pimc).")
@click.option("--early-stop/--no-early-stop", "stop_early", default=True, show_default=True,
              help="Stop at the first look whose interval excludes 0 (with --precision: "
                   "whose half-width reaches it).")
@PROGRESS_OPTION
@click.option("--report", "report_dir", type=PathName(file_okay=False), default=None,
              metavar="DIR", help="Also write match.json, match.txt and match.png to DIR.")
@click.option("--force", is_flag=True,
              help="With --report: write into DIR even if it already holds files.")
@click.option("--p-win-game", "p_win_game", is_flag=True,
              help="Also P(A wins a game from 0-0) through the game-equity table of each "
                   "seating (two or three sides, kernel policies; built once and cached, "
                   "minutes on a cold cache).")
@JSON_OPTION
@run_dir_options
def match_cmd(a, b, preset, players, rules_file, variants, deals, seed, threads, time_limit,
              precision, pilot, stop_early, progress, report_dir, force, p_win_game,
              as_json, run_dir, scheduler, workers):
    """Is strategy A better than B? A duplicate match: every deal played with A on side 0
    and B on the others, then swapped (with three or more sides, every rotation), on the
    same cards; the mean point difference per deal (A minus B) with its 95% interval, made
    narrower by a control variate fitted on a separate pilot. Ctrl-C keeps what finished.

    A and B are strategies: random, heuristic, or pimc[:N] (N sampled deals a decision,
    default 50; slow), e.g. catchten match pimc:10 heuristic --deals 200."""
    from pathlib import Path
    from .match import match
    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    try:
        with _errors_as_json(as_json):
            rules = make_rules(preset, players, variants, rules_file)
            _check_force(force, report_dir)
            if report_dir is not None:
                from .report import prepare_out_dir
                prepare_out_dir(report_dir, force, "report")
            _warn_small_pilot(pilot)
            bar = _Progress(max(deals, 1) if isinstance(deals, int) else 0) if show else None
            res = match(rules, a, b, deals=deals, seed=seed, threads=threads,
                        time_limit=time_limit, precision=precision, pilot=pilot,
                        stop_early=stop_early, progress=bar.update if bar else None,
                        run_dir=run_dir, scheduler=scheduler, workers=workers,
                        **({"outputs": {"report": str(Path(report_dir).resolve())}}
                           if run_dir and report_dir else {}))
    finally:
        if bar is not None:
            bar.close()
    d = res.to_dict()
    if p_win_game:
        from .match import game_p_win
        with _errors_as_json(as_json):
            d["p_win_game"] = game_p_win(rules, a, b, seed=seed, threads=threads)
    if report_dir is not None:
        d["report"] = _write_match_report(res, report_dir)
    return _print_match(res, d, as_json, run_dir, report_dir)


#: below this many pilot deals ``match`` warns that the control variate's coefficient is
#: unreliable: fitted on under 25 rounds at four players, its own error (relative about
#: 1 / sqrt(rounds)) is a fifth of it or more
MIN_PILOT_DEALS = 100


def _warn_small_pilot(pilot) -> None:
    """One line on stderr for a ``--pilot`` of 1 to :data:`MIN_PILOT_DEALS` - 1 deals."""
    if isinstance(pilot, int) and not isinstance(pilot, bool) and 0 < pilot < MIN_PILOT_DEALS:
        click.echo(f"warning: pilot: {pilot} deals are too few for a reliable control-variate "
                   f"coefficient (under {MIN_PILOT_DEALS}; under 2 rounds none is used): the "
                   "interval stays valid but may be wider; use --pilot 0 or at least "
                   f"{MIN_PILOT_DEALS}", err=True)


def _print_match(res, d: dict, as_json: bool, run_dir, report_dir=None,
                 printed: bool = False) -> int | None:
    """Print a match (``d``: its JSON, with any extra keys; ``printed``: out already);
    short of its deals (a time limit: only in a run directory, which can go on): say so
    (:func:`_short_of`)."""
    if as_json:
        if not printed:
            _emit_json(d)
    else:
        click.echo(res.to_text())
        if "p_win_game" in d:
            click.echo(f"  P({res.a.label} wins a game from 0-0): {100 * d['p_win_game']:.1f}% "
                       "(game-equity table of each seating)")
        if report_dir is not None:
            click.echo(f"report: {len(d['report'])} files written to {report_dir}", err=True)
    if res.stop in ("interrupted", "unfinished") or (res.stop == "time" and run_dir):
        why = "time limit" if res.stop == "time" else res.stop
        return _short_of(why, f"{res.deals:,} deals played", run_dir)
    return None


def _write_match_report(res, out_dir) -> list[str]:
    """match.json, match.txt and match.png (plotting.plot_matches) in ``out_dir``."""
    from pathlib import Path
    import pandas as pd
    from .plotting import plot_matches
    out = Path(out_dir)
    files = []
    (out / "match.json").write_text(json.dumps(res.to_dict(), indent=2, allow_nan=False) + "\n")
    (out / "match.txt").write_text(res.to_text() + "\n")
    lo, hi = res.ci95
    frame = pd.DataFrame({"label": [f"{res.a.label} vs {res.b.label}"],
                          "mean": [res.mean_difference], "lo": [lo], "hi": [hi]})
    stamp = (f"INTERRUPTED (Ctrl-C) after {res.deals:,} of {res.requested:,} deals"
             if res.stop == "interrupted" else
             f"UNFINISHED run directory: {res.deals:,} of {res.requested:,} deals (finish "
             "it: catchten resume DIR)" if res.stop == "unfinished" else None)
    fig = plot_matches(frame, footer=f"{res.rules.label()}; {res.deals:,} deals x "
                                      f"{len(res.seatings)} seatings; seed {res.seed}",
                       estimate="duplicate + control variate" if res.control_variate_used
                       else "duplicate", stamp=stamp)
    fig.savefig(out / "match.png", dpi=150)
    for name in ("match.json", "match.txt", "match.png"):
        files.append(str(out / name))
    return files


# ---------------------------------------------------------------------------- equity
MAX_EQUITY_HANDS = 20_000_000
@cli.command("equity")
@rules_options
@play_options("side 0 (seat 0 and partners)")
@click.option("--hands", type=int, default=None,
              help="Simulated deals the per-deal outcome distribution is estimated from "
                   "(default 1,000,000 with two sides; with three sides, whose table is "
                   "41^3 states, 200,000, or 50,000 with six-card sets: a few minutes).")
@click.option("--out", "out_path", type=PathName(dir_okay=False), default=None,
              help="Write the table: .csv or .parquet; columns score_0, score_1, "
                   "dealer_side, p_win_0, p_win_1.")
@click.option("--plot", is_flag=True,
              help="Also write a heatmap PNG next to the table (two sides; needs --out).")
@click.option("--cache/--no-cache", default=True, show_default=True,
              help="Reuse / store the table in the cache directory ($CATCHTEN_CACHE_DIR, "
                   "default ~/.cache/catchten_sim); advise --score reads it.")
@PROGRESS_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary (errors too).")
@run_options
def equity_cmd(preset, players, rules_file, variants, hands, seed, policy, opponents, threads,
               out_path, plot, cache, progress, as_json, run_dir, scheduler, workers, chunk):
    """The game-equity table: P(each side wins the game | scores before a deal, who deals),
    exact by dynamic programming over the deal outcomes of HANDS simulated deals (2 sides;
    3 sides with tie=count_out; 4 or more sides are refused). Ctrl-C while the deals are
    simulated solves from the deals finished, marked partial (exit 130)."""
    from pathlib import Path
    from .equity import cached_equity_table, equity_table
    from .policies import seat_policies as make_policies
    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    try:
        with _errors_as_json(as_json):
            rules = make_rules(preset, players, variants, rules_file)
            pols = make_policies(rules, policy, opponents)
            if plot and not out_path:
                raise CatchTenError("plot", "needs --out", "the PNG is written next to the table")
            if plot and rules.n_sides != 2:
                raise CatchTenError("plot", "two sides only", f"{rules.n_sides} sides")
            if out_path and Path(out_path).suffix.lower() not in (".csv", ".parquet"):
                raise CatchTenError("out", "unknown file type",
                                    f"{Path(out_path).name}: use a .csv or .parquet file name")
            if hands is None:
                hands = (1_000_000 if rules.n_sides == 2 else
                         50_000 if rules.n_sets > 1 else 200_000)
            from .checks import check_count
            # the deal outcomes are held in memory (16 bytes a deal): 20 million is 320 MB
            hands = check_count("hands", hands, 1, MAX_EQUITY_HANDS)
            if show and not as_json:
                bar = _Progress(hands if isinstance(hands, int) else 0)

            def solving(k: int, est: float) -> None:
                nonlocal bar
                if bar is not None:
                    bar.close()
                    bar = None
                if show and not as_json and est >= 2:
                    click.echo(f"solving the game-equity DP over {k:,} distinct deal outcomes "
                               f"(about {est:.0f} s, cannot be interrupted)", err=True)

            extra: dict[str, Any] = {}
            if any(x is not None for x in (run_dir, scheduler, workers, chunk)):
                # the cache is for plain runs
                build = equity_table
                extra = {"run_dir": run_dir, "scheduler": scheduler, "workers": workers,
                         **({"chunk": chunk} if chunk is not None else {})}
                if run_dir and out_path:        # catchten resume writes them too
                    extra["outputs"] = {"out": str(Path(out_path).resolve()),
                                        "plot": bool(plot)}
            else:
                build = cached_equity_table if cache else equity_table
            eq = build(rules, pols, n_hands=hands, seed=seed, threads=threads,
                       progress=bar.update if bar is not None else None, on_solve=solving,
                       **extra)
            summary = _write_equity(eq, eq.to_dict(), out_path, plot)
    finally:
        if bar is not None:
            bar.close()
    return _print_equity(eq, summary, as_json, run_dir)


def _write_equity(eq, summary: dict, out_path, plot: bool) -> dict:
    """Write an equity table to ``out_path`` (.csv/.parquet) and, with ``plot``, its
    heatmap next to it; ``summary`` (its JSON) gets the files' names."""
    from pathlib import Path
    if out_path:
        summary[Path(out_path).suffix.lower()[1:]] = str(eq.to_csv(out_path))
    if out_path and plot:
        from .plotting import plot_equity
        png = Path(out_path).with_suffix(".png")
        fig = plot_equity(eq.to_frame(),
                          footer=f"{eq.rules.label()}; "
                                 f"{', '.join(p.label for p in eq.policies)}; "
                                 f"{eq.n_hands:,} deals; seed {eq.seed}"
                                 + ("; PARTIAL (interrupted)" if eq.partial else ""))
        fig.savefig(png, dpi=150)
        summary["png"] = str(png)
    return summary


def _with_start(eq, d: dict) -> dict:
    """An equity table's JSON with ``start``: each side's P(win) from 0-0 by dealer."""
    ns = eq.rules.n_sides
    d["start"] = [{"dealer_seat": c, "p_win": list(eq.p_win((0,) * ns, c))}
                  for c in range(eq.rules.players if not eq.by_side else ns)]
    return d


def _print_equity(eq, summary: dict, as_json: bool, run_dir=None,
                  printed: bool = False) -> int | None:
    """Print an equity table (``summary``: its JSON, with any extra keys; ``printed``: its
    JSON is out already)."""
    rules = eq.rules
    T = summary["target"]
    ns = rules.n_sides
    _with_start(eq, summary)
    code = 130 if eq.stopped == "interrupted" else None
    if eq.stopped == "unfinished":
        click.echo(f"unfinished: {eq.n_hands:,} of {eq.requested_hands:,} deals in {run_dir}; "
                   f"the table below is built from those; finish with: catchten resume "
                   f"{run_dir}", err=True)
    if as_json:
        if not printed:
            _emit_json(summary)
        return code
    if eq.partial and eq.stopped != "unfinished":
        click.echo(f"PARTIAL: interrupted after {eq.n_hands:,} of {eq.requested_hands:,} "
                   "deals; the table below is built from those"
                   + (f"; finish with: catchten resume {run_dir}" if run_dir else ""))
    click.echo(f"{rules.label()}: game equity to {T}, tie={summary['tie']}; {eq.n_hands:,} deals "
               f"({summary['distinct_outcomes']:,} distinct outcomes), seed {eq.seed}; "
               + ("read from the cache" if summary["simulation_s"] == 0 and not run_dir else
                  f"simulation {summary['simulation_s']:.2f} s, DP {summary['dp_s']:.2f} s"))
    for e in summary["start"]:
        click.echo(f"  from 0-0, seat {e['dealer_seat']} dealing: "
                   + ", ".join(f"side {s} {100 * p:.1f}%" for s, p in enumerate(e["p_win"])))
    if ns == 2:
        step = 5 if T > 20 else 1
        marks = list(range(0, T, step))
        for c in range(eq.V.shape[0]):
            who = f"side {c}" if eq.by_side else f"seat {c}"
            click.echo(f"\nP(side 0 wins), {who} dealing (rows: side 0's score, "
                       "columns: side 1's):")
            click.echo("      " + "".join(f"{b:>6d}" for b in marks))
            for a in marks:
                click.echo(f"{a:>6d}" + "".join(f"{100 * eq.V[c, a, b]:6.1f}" for b in marks))
    for key in ("csv", "parquet", "png"):
        if key in summary:
            click.echo(f"{key}: {summary[key]}")
    return code


def main() -> None:
    """Console-script entry point.

    The objects made by the imports (numba's, most of them) live as long as the process:
    frozen (``gc.freeze``), the cyclic collector's full passes no longer walk them (0.1 to
    0.25 s of a one-second ``advise``). Only here, where the process is ours: the API and
    click's test runner leave the collector as it is."""
    gc.freeze()
    cli.main(prog_name="catchten")


if __name__ == "__main__":  # pragma: no cover
    main()
