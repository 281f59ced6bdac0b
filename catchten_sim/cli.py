"""The ``catchten`` command line: thin, calls the public API only (DESIGN.md §1).

Bad input prints one line ``error: FIELD: WHY (detail)`` on stderr and exits 2; other
failures exit 1; never a traceback.
"""
from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from .errors import CatchTenError
from .policies import POLICY_NAMES
from .rules import PRESETS, Rules


# ---------------------------------------------------------------------------- plumbing
def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class CatchtenGroup(click.Group):
    """A click group whose errors are one line and exit 2 (usage) or 1 (failure)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):  # noqa: D401
        try:
            rv = super().main(args=args, prog_name=prog_name or "catchten",
                              complete_var=complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
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
            click.echo(f"error: {_one_line(exc.line())}", err=True)
            sys.exit(2)
        except click.Abort:
            click.echo("error: aborted", err=True)
            sys.exit(130)
        except KeyboardInterrupt:
            click.echo("error: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:
            sys.exit(1)
        except Exception as exc:  # a bug: say so in one line, keep the exit status 1
            click.echo(f"error: internal error: {type(exc).__name__}: {_one_line(exc)} "
                       "(please report it)", err=True)
            sys.exit(1)
        if isinstance(rv, int) and not isinstance(rv, bool):
            sys.exit(rv)
        sys.exit(0)


def rules_options(f):
    """The rules options shared by every command that plays."""
    f = click.option("--variant", "-V", "variants", multiple=True, metavar="NAME[=VALUE]",
                     help="A rule switch from RULES.md, e.g. keep_six_of_spades or target=31 "
                          "(repeatable).")(f)
    f = click.option("--rules-file", type=click.Path(dir_okay=False),
                     help="TOML file: rules = \"foster\", players = 4, [variants] ...; "
                          "other options override it.")(f)
    f = click.option("--players", "-n", type=int, default=None,
                     help="Number of players, 2 to 8 (foster); default 4.")(f)
    f = click.option("--rules", "-r", "preset", type=str, default=None,
                     help=f"Rule preset: {', '.join(PRESETS)} (default foster).")(f)
    return f


def make_rules(preset: str | None, players: int | None, variants: tuple[str, ...],
               rules_file: str | None) -> Rules:
    return Rules.from_options(preset, players, variants, rules_file)


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
    catchten report                   simulate and write a PDF/PNG/CSV report
    """


@cli.command("rules")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def rules_cmd(preset, players, rules_file, variants, as_json):
    """Print the resolved rules: deck, seats and sides, shares, honours, trump order,
    dealing, target, tie and revoke rules."""
    rules = make_rules(preset, players, variants, rules_file)
    d = rules.describe()
    if as_json:
        _emit_json(d)
        return
    from .report_text import print_rules
    print_rules(d)


@cli.command("simulate")
@rules_options
@click.option("--deals", "-d", type=int, default=1_000_000, show_default=True,
              help="Number of deals to simulate.")
@click.option("--seed", "-s", type=int, default=1, show_default=True,
              help="Random seed (0 to 2**64-1); the result depends only on it.")
@click.option("--policy", "-p", type=str, default="heuristic", show_default=True,
              help=f"Policy of side 0 (seat 0 and partners): {', '.join(POLICY_NAMES)}.")
@click.option("--opponents", type=str, default=None,
              help="Policy of every other seat (default: the same as --policy).")
@click.option("--seat-policy", "seat_policies", multiple=True, metavar="SEAT=POLICY",
              help="Policy of one seat, e.g. 2=random (repeatable).")
@click.option("--threads", "-t", type=int, default=None,
              help="Threads (default: all cores); results do not depend on it.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Also write one row per deal to FILE (.csv or .parquet).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR",
              help="Also write a report of this run to DIR (PDF, PNGs, CSVs, JSON; with "
                   "the player-count, variants and policy sweeps, as `catchten report`).")
def simulate_cmd(preset, players, rules_file, variants, deals, seed, policy, opponents,
                 seat_policies, threads, as_json, out_path, progress, report_dir):
    """Simulate DEALS deals and print the odds: P(Ten caught) with its 95% interval, and
    each position's expected honours, card points and hand total."""
    from .simulate import DealWriter, seat_policies as make_policies, simulate
    rules = make_rules(preset, players, variants, rules_file)
    overrides: dict[int, str] = {}
    for item in seat_policies:
        seat, sep, pol = item.partition("=")
        if not sep or not seat.strip().isdigit():
            raise CatchTenError("seat-policy", "expected SEAT=POLICY", repr(item))
        overrides[int(seat)] = pol
    pols = make_policies(rules, policy, opponents, overrides)
    if report_dir is not None:
        from .report import prepare_out_dir
        prepare_out_dir(report_dir)          # fail before simulating, not after
    writer = DealWriter(out_path, rules.players) if out_path else None
    show = sys.stderr.isatty() if progress is None else progress
    bar = _Progress(deals) if show else None
    try:
        res = simulate(rules, pols, n_deals=deals, seed=seed, threads=threads,
                       on_chunk=writer, progress=bar.update if bar else None)
    finally:
        if bar:
            bar.close()
        if writer:
            writer.close()
    if as_json:
        _emit_json(res.to_dict())
    else:
        from .report_text import print_simulation
        print_simulation(res)
    if res.interrupted:
        click.echo(f"interrupted: {res.n_deals} of {res.requested} deals simulated; "
                   "the numbers above are for those", err=True)
    if report_dir is not None:
        from .report import build_report
        rep = build_report(rules, pols, n_deals=res.n_deals, seed=seed, out_dir=report_dir,
                           threads=threads, main=res, progress=_say if show else None)
        click.echo(f"report: {len(rep.files)} files written to {rep.out_dir}", err=True)


def _say(msg: str) -> None:
    click.echo(f"  {msg}", err=True)


@cli.command("report")
@rules_options
@click.option("--deals", "-d", type=int, default=1_000_000, show_default=True,
              help="Deals of the main run; each sweep run uses a fifth (at least 1,000).")
@click.option("--sweep-deals", type=int, default=None,
              help="Deals per sweep run (default: a fifth of --deals, at least 1,000).")
@click.option("--seed", "-s", type=int, default=1, show_default=True,
              help="Random seed of every run (0 to 2**64-1).")
@click.option("--policy", "-p", type=str, default="heuristic", show_default=True,
              help=f"Policy of side 0 (seat 0 and partners): {', '.join(POLICY_NAMES)}.")
@click.option("--opponents", type=str, default=None,
              help="Policy of every other seat (default: the same as --policy).")
@click.option("--threads", "-t", type=int, default=None,
              help="Threads (default: all cores); results do not depend on it.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR", help="Directory to write (default: reports/PRESET-Np/).")
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
def report_cmd(preset, players, rules_file, variants, deals, sweep_deals, seed, policy,
               opponents, threads, out_dir, formats, sweep_players, sweep_variants,
               compare_policies, progress):
    """Simulate and write a report: one multi-page PDF, a PNG per figure, the numbers
    behind every figure as CSV and a JSON sidecar (rules, policies, deals, seed, versions).

    \b
    Figures: headline numbers and rules; P(Ten caught) by player count; a side's points;
    seat advantage by position; convergence; the Ten's fate by its holder's position and
    trumps; the value of a holding; rule variants compared; policies compared.
    """
    from .report import build_report, parse_formats
    from .simulate import seat_policies as make_policies
    fmts = parse_formats(formats)
    rules = make_rules(preset, players, variants, rules_file)
    pols = make_policies(rules, policy, opponents)
    show = sys.stderr.isatty() if progress is None else progress
    rep = build_report(rules, pols, n_deals=deals, seed=seed, out_dir=out_dir, formats=fmts,
                       sweep_players=sweep_players, sweep_variants=sweep_variants,
                       compare_policies=compare_policies, sweep_deals=sweep_deals,
                       threads=threads, progress=_say if show else None)
    click.echo(f"{rep.out_dir}: " + ", ".join(p.name for p in rep.files
                                              if p.suffix in (".pdf", ".json"))
               + f" and {sum(p.suffix == '.png' for p in rep.files)} PNG, "
               f"{sum(p.suffix == '.csv' for p in rep.files)} CSV files")


class _Progress:
    """A rich progress bar on stderr that appears once a run takes over ~2 seconds."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.start = time.perf_counter()
        self.bar = None
        self.task = None

    def update(self, done: int, total: int) -> None:
        if self.bar is None:
            if time.perf_counter() - self.start < 2.0 or done >= total:
                return
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress,
                                       TimeRemainingColumn)
            self.bar = Progress("deals", BarColumn(), MofNCompleteColumn(),
                                TimeRemainingColumn(), console=Console(stderr=True),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task("deals", total=total)
        self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@cli.command("score")
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print JSON (errors too).")
def score_cmd(record, as_json):
    """Score a hand record or a game record (JSON, FORMATS.md): tricks, honours, card
    points, the Ten's fate, revokes; for games the running totals and the winner."""
    from . import records
    try:
        data = records.load_record(record)
        result = records.score_any(data)
    except CatchTenError as exc:
        if as_json:
            _emit_json(exc.to_dict())
            sys.exit(2)
        raise
    if as_json:
        _emit_json(result)
    else:
        from .report_text import print_score
        print_score(result)


def main() -> None:
    """Console-script entry point."""
    cli.main(prog_name="catchten")


if __name__ == "__main__":  # pragma: no cover
    main()
