"""A simulation report: runs, tables, figures; one PDF, PNGs, CSVs and a JSON sidecar.

>>> from catchten_sim import Rules
>>> from catchten_sim.report import build_report
>>> import tempfile
>>> rep = build_report(Rules("foster", 4), "heuristic", n_deals=2_000, seed=1,
...                    out_dir=tempfile.mkdtemp())
>>> rep.pdf.name, len(rep.figures)
('report.pdf', 9)

What it runs (all with the same seed, so runs share their deals where the rules allow):

- the **main run**: ``n_deals`` deals under ``rules`` and ``policies``;
- the **player-count sweep**: one run per player count the preset allows (2 to 8 for
  foster), every seat heuristic, then every seat random (and the main run's mixture of
  policies when it has one);
- the **variants sweep**: the other presets at the same player count, and each switch of
  docs/rules.md §3-4 that changes a single deal, turned on (or off) on top of the main rules;
  game-level switches (``target``, ``tie``, ``revoke``, ``game_at_once``) change games,
  not deals, and are left out;
- the **policy comparison**: side 0 heuristic or random against opponents heuristic or
  random.

Sweep runs have ``sweep_deals`` deals each (default: a fifth of ``n_deals``, at least
1,000); every figure's footer states the rules, policies, deals and seed behind it.

Files written to ``out_dir`` (default: a new ``report-<preset>-<players>p/`` in the
working directory; an existing non-empty directory only with ``force``):
``report.pdf`` (one page per figure, vector), ``figNN_<name>.png`` (150 dpi), the
numbers behind each figure in ``figNN_<name>.csv`` and ``report.json`` (rules, policies,
deals, seed, every run, package versions, run time). The CSVs, PNGs and PDF depend only on
the arguments (the PDF carries no dates), so a second run with the same seed rewrites
the same files.
"""
from __future__ import annotations

import json
import platform
import textwrap
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import pandas as pd

from . import plotting as P
from . import tables as T
from .checks import MAX_DEALS, check_count, check_seed
from .errors import CatchTenError, RulesError, unknown_name
from .policies import Policy
from .writers import (FIGURE_NUMBERS, prepare_out_dir, write_report_figures,
                      write_report_sidecar)
from .rules import PLAYERS_ALLOWED, PRESETS, REGISTRY, SWITCH_OF, Rules

__all__ = ["build_report", "Report", "FORMATS", "FIGURES", "parse_formats",
           "default_out_dir", "prepare_out_dir", "sweep_deals_for", "variant_rules"]

#: output formats for the figures (CSV and JSON are always written)
FORMATS = ("pdf", "png")
#: figure names in page order
FIGURES = ("summary", "ten_by_players", "points_distribution", "seat_advantage",
           "convergence", "fate_by_holder", "holding_value", "variants", "policies")
MIN_SWEEP_DEALS = 1_000
#: fewest deals a report (main run, sweep runs) is made from: fewer leave figures empty
MIN_REPORT_DEALS = 100
#: deals the holdings figure (fig07) is drawn from: each is dealt again in Python to see
#: which honours each side holds (about 0.1-0.2 ms a deal)
HOLDING_DEALS = 50_000
#: seconds a report's time limit keeps for each figure (drawn and written as PDF page and
#: PNG: 1.2 s measured on a loaded 2-core machine)
FIGURE_SECONDS = 1.5

#: switches that change a single deal (docs/rules.md §3-4), with where they apply:
#: name -> (presets or None for all, player counts or None for all); from the registry
DEAL_SWITCHES: dict[str, tuple[tuple[str, ...] | None, tuple[int, ...] | None]] = {
    sw.name: sw.deal for sw in REGISTRY if sw.deal is not None}
_HONOUR_NAMES = {"J": "Jack", "T": "Ten", "A": "Ace", "K": "King", "Q": "Queen", "9": "Nine"}


# ---------------------------------------------------------------------------- options
def parse_formats(formats: str | Iterable[str] | None) -> tuple[str, ...]:
    """Figure formats from ``"pdf,png"`` or an iterable; ``csv`` and ``json`` are accepted
    (always written).

    Raises
    ------
    CatchTenError
        ``format: unknown format``.
    """
    if formats is None:
        return FORMATS
    items = formats.split(",") if isinstance(formats, str) else list(formats)
    out: list[str] = []
    for item in items:
        f = str(item).strip().lower().lstrip(".")
        if not f:
            continue
        if f not in FORMATS + ("csv", "json"):
            raise unknown_name("format", "format", item, FORMATS)
        if f in FORMATS and f not in out:
            out.append(f)
    if not out and not any(str(i).strip().lower() in ("csv", "json") for i in items):
        raise CatchTenError("format", "no format given", "choose from pdf, png")
    return tuple(out)


def default_out_dir(rules: Rules, base: str | Path = ".") -> Path:
    """A new directory in ``base`` (the working directory): ``report-<preset>-<players>p``,
    or ``...-2``, ``-3``, ... when that one exists and is not empty (a report never
    overwrites another unless asked to)."""
    from .paths import is_empty_dir
    stem = f"report-{rules.preset}-{rules.players}p"
    path = Path(base) / stem
    k = 2
    while not is_empty_dir(path):
        path = Path(base) / f"{stem}-{k}"
        k += 1
    return path


def sweep_deals_for(n_deals: int) -> int:
    """Deals per sweep run: a fifth of the main run, at least 1,000 (at most ``n_deals``)."""
    return max(1, min(int(n_deals), max(MIN_SWEEP_DEALS, int(n_deals) // 5)))


class TenBySide:
    """Counts, from a run's per-deal rows, whose Ten of trumps was caught: side 0's (the
    Ten dealt to seat 0 or a partner) and the other sides' (a ``reduce`` of
    :func:`~catchten_sim.simulate.simulate`: ``counts(rows)`` per chunk, summed into the
    result's ``extra``, read back by :meth:`load`). Picklable (Dask)."""

    name = "ten_by_side"
    size = 4               # in play [side 0's Ten, the others'], then caught [same]

    def __init__(self, rules: Rules) -> None:
        from ._kernels import engine as K
        self.n = rules.players
        self.side_of_seat = np.asarray(rules.tables().side_of_seat)
        self.cols = (K.C_DEALER, K.C_TEN_HOLDER, K.C_TEN_FATE, K.FATE_SAVED, K.FATE_CAUGHT)
        self.in_play = np.zeros(2, dtype=np.int64)     # [side 0's Ten, the others' Ten]
        self.caught = np.zeros(2, dtype=np.int64)

    def counts(self, rows: np.ndarray) -> np.ndarray:
        c_dealer, c_holder, c_fate, saved, caught = self.cols
        pos = rows[:, c_holder].astype(np.int64)
        fate = rows[:, c_fate]
        live = (pos > 0) & ((fate == saved) | (fate == caught))
        seat = (rows[:, c_dealer].astype(np.int64) + pos) % self.n
        other = (self.side_of_seat[seat] != 0).astype(np.int64)
        return np.concatenate([np.bincount(other[live], minlength=2),
                               np.bincount(other[live & (fate == caught)], minlength=2)])

    def load(self, extra: np.ndarray | None) -> TenBySide:
        """Take the summed counts of a result (``SimulationResult.extra``)."""
        if extra is not None:
            self.in_play[:], self.caught[:] = extra[:2], extra[2:4]
        return self


def _split_policies(rules: Rules, policies: Any) -> tuple[tuple[Policy, ...], Policy, Policy]:
    """Per-seat policies, and the policy of side 0 and of the first opposing seat."""
    from .policies import seat_policies
    if isinstance(policies, (str, Policy)) or policies is None:
        pols = seat_policies(rules, policies or "heuristic")
    else:
        pols = tuple(Policy.parse(p) for p in policies)
        if len(pols) != rules.players:
            raise CatchTenError("policies", "wrong number of policies",
                                f"{len(pols)} for {rules.players} players")
    mine = pols[0]
    theirs = next((pols[s] for s in range(rules.players) if rules.side_of(s) != 0), mine)
    return pols, mine, theirs


def _policy_text(mine: Policy, theirs: Policy, pols: Sequence[Policy] | None = None) -> str:
    if pols is not None and len({p for p in pols}) > 2:
        return " / ".join(p.label for p in pols) + " (by seat)"
    if mine == theirs:
        return f"{mine.label} (all seats)"
    return f"{mine.label} (side 0) vs {theirs.label} (other sides)"


# ---------------------------------------------------------------------------- sweeps
def variant_rules(rules: Rules) -> list[tuple[str, str, Rules]]:
    """The rules of the variants sweep: (label, kind, Rules), baseline first.

    Other presets at the same player count (with their own defaults), then every switch
    of :data:`DEAL_SWITCHES` that applies to this preset and player count, flipped from
    its value in ``rules`` (booleans toggled, two-way choices swapped). Combinations the
    rules refuse are left out.
    """
    out: list[tuple[str, str, Rules]] = [(f"{rules.label()} (baseline)", "baseline", rules)]
    seen = {rules.label()}
    for preset in PRESETS:
        if preset == rules.preset or rules.players not in PLAYERS_ALLOWED[preset]:
            continue
        try:
            r = Rules(preset, rules.players)
        except RulesError:
            continue
        if r.label() not in seen:
            seen.add(r.label())
            out.append((f"{preset} preset", "preset", r))
    given = rules.given_variants()
    for name, (presets, players) in DEAL_SWITCHES.items():
        if presets is not None and rules.preset not in presets:
            continue
        if players is not None and rules.players not in players:
            continue
        if name not in rules.variants:
            continue
        cur = rules.variants[name]
        new: Any = SWITCH_OF[name].flipped(cur)
        if new is None:
            continue
        if isinstance(cur, bool):
            label = f"with {name}" if new else f"without {name}"
        else:
            label = f"{name}={new}"
        try:
            r = Rules(rules.preset, rules.players, {**given, name: new})
        except RulesError:
            continue
        if r.label() not in seen:
            seen.add(r.label())
            out.append((label, "switch", r))
    return out


def _player_rules(rules: Rules) -> list[Rules]:
    out = []
    for n in PLAYERS_ALLOWED[rules.preset]:
        try:
            out.append(Rules(rules.preset, n, rules.given_variants()))
        except RulesError:
            continue
    return out


# ---------------------------------------------------------------------------- result
@dataclass
class Report:
    """What :func:`build_report` wrote.

    Attributes
    ----------
    out_dir : Path
    files : list of Path, every file written (sorted)
    figures : list of dict (name, title, page, png, csv)
    sidecar : dict, the content of ``report.json``
    tables : dict name -> DataFrame, the numbers behind each figure
    """

    out_dir: Path
    files: list[Path]
    figures: list[dict]
    sidecar: dict
    tables: dict[str, pd.DataFrame] = field(repr=False)

    @property
    def pdf(self) -> Path | None:
        p = self.out_dir / "report.pdf"
        return p if p in self.files else None


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for pkg in ("catchten_sim", "numpy", "pandas", "matplotlib", "numba"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:  # pragma: no cover
            # run from a source tree without installing: the package says its version
            from . import __version__
            out[pkg] = __version__ if pkg == "catchten_sim" else "unknown"
    return out


def _sweep_text(*groups: Sequence[Any]) -> str | None:
    """The deals the sweep runs really had (an interrupted report's last run is short)."""
    def results(item: Any) -> list[Any]:
        items = item if isinstance(item, tuple) else (item,)
        return [x for x in items if hasattr(x, "n_deals")]
    ns = sorted({int(r.n_deals) for runs in groups for item in runs for r in results(item)})
    if not ns:
        return None
    if len(ns) == 1:
        return f"{ns[0]:,} per sweep run"
    return f"{ns[0]:,} to {ns[-1]:,} per sweep run"


def _rules_lines(rules: Rules, policy_text: str, n_deals: int, sweep: str | None,
                 seed: int, version: str, width: int = 56) -> list[str]:
    d = rules.describe()
    given = rules.given_variants()
    if rules.n_sides == rules.players:
        sides = "each player plays alone"
    else:
        sides = "; ".join("seats " + "+".join(str(s) for s in sd["seats"]) for sd in d["sides"])
    honours = ", ".join(f"{_HONOUR_NAMES.get(k, k)} {v}" for k, v in d["honours"].items())
    raw = [
        f"Preset {rules.preset}, {rules.players} players; switches: "
        + (", ".join(k if v is True else f"{k}={v}" for k, v in sorted(given.items()))
           or "none (the preset's defaults)"),
        f"Deck: {d['deck']['size']} cards; {d['dealing']}",
        f"Trumps: {d['turnup']}",
        f"Sides: {sides}",
        f"Trump order: {d['trump_order']}; honours: {honours}",
        f"Card points: {d['card_points']} (share {d['share']}, scored per "
        f"{d['scoring_unit']})",
        f"Target {d['target']}, tie: {d['tie']}, revoke: {d['revoke']} (game rules: they do "
        "not change one deal's numbers)",
        "",
        f"Policies: {policy_text}",
        f"Deals: {n_deals:,} in the main run" + (f"; {sweep}" if sweep else ""),
        f"Seed: {seed}; the deal rotates (deal i is dealt by seat i mod {rules.players})",
        "Intervals: 95%, Wilson for proportions, mean \u00b1 1.96 se for means",
        f"catchten_sim {version}",
    ]
    out: list[str] = []
    for line in raw:
        out.extend(textwrap.wrap(line, width=width, subsequent_indent="   ") or [""])
    return out


# ---------------------------------------------------------------------------- build
def _check_report_time(time_limit: float | None) -> None:
    """Refuse a report's ``time_limit`` too short to draw its figures (:data:`FIGURE_SECONDS`
    each, and a second for the runs)."""
    if time_limit is None:
        return
    from .run import check_seconds
    reserve = FIGURE_SECONDS * len(FIGURE_NUMBERS)
    if check_seconds(time_limit) < reserve + 1:
        raise CatchTenError("time", "too short for a report",
                            f"--time {time_limit:g}: drawing the {len(FIGURE_NUMBERS)} "
                            f"figures alone takes about {reserve:.0f} s; give --time "
                            f"{reserve + 1:.0f} or more")


def _left_out(rules: Rules, specs: list, sweep_players: bool, sweep_variants: bool,
              compare_policies: bool) -> list[str]:
    """The figures a whole report would have that a report cut short leaves out (by file
    name stem, in figure order)."""
    wanted = ["holding_value"]
    wanted += ["ten_by_players"] if sweep_players and _player_rules(rules) else []
    wanted += ["variants"] if sweep_variants and variant_rules(rules) else []
    wanted += ["policies"] if compare_policies else []
    drawn = {name for name, *_ in specs}
    return [f"fig{FIGURE_NUMBERS[n]:02d}_{n}" for n in
            sorted(wanted, key=FIGURE_NUMBERS.__getitem__) if n not in drawn]


def _stamp(main: Any, stopped: bool, timed: bool, total_deals: int,
           unfinished_from: str | None) -> str | None:
    """The line every figure of a report cut short carries (None: a whole report)."""
    if stopped:
        return (f"{'TIME LIMIT' if timed else 'INTERRUPTED (Ctrl-C)'} after {total_deals:,} "
                f"deals in all: main run {main.n_deals:,} of "
                f"{getattr(main, 'requested', main.n_deals):,} deals; runs not made are "
                "left out")
    if unfinished_from and getattr(main, "interrupted", False):
        return (f"UNFINISHED run directory: main run {main.n_deals:,} of "
                f"{main.requested:,} deals (finish it: catchten resume {unfinished_from})")
    return None


def _sidecar_head(rules: Rules, pols: Sequence[Policy], pol_text: str, mine: Policy,
                  theirs: Policy) -> dict[str, Any]:
    """The first keys of ``report.json``: what the report is, its rules and policies."""
    return {"kind": "catchten_sim report", "rules": rules.to_dict(),
            "rules_label": rules.label(), "rules_described": rules.describe(),
            "policies": {"seats": [p.label for p in pols], "label": pol_text,
                         "side0": mine.label, "opponents": theirs.label}}


def _run_within(runs: _Runs, runs_s: float | None, scheduler: str | None,
                workers: int | None, args: tuple) -> tuple[Any, bool]:
    """Make a report's runs (``runs.all(*args)``) within ``runs_s`` seconds (None: no
    limit; small chunks then, so a run stops within one of the limit) on one executor for
    them all (a Dask cluster is started, or reached, once). Returns (the main run, whether
    the time limit cut the runs short)."""
    from .run import make_executor, time_limit as limit_runs
    if runs_s is not None and runs.chunk is None:
        runs.chunk = 1 << 14
    runs.shared = make_executor(runs.threads, scheduler, workers) if scheduler or workers \
        else None
    try:
        with limit_runs(None if runs_s is None else max(runs_s, 0.1)) as lim:
            runs.limit = lim
            main = runs.all(*args)
    finally:
        if runs.shared is not None:
            runs.shared.close()
    return main, lim is not None and lim.hit and runs.stopped


def build_report(rules: Rules, policies: Any = "heuristic", *, n_deals: int, seed: int = 1,
                 out_dir: str | Path | None = None,
                 formats: str | Iterable[str] = FORMATS, sweep_players: bool = True,
                 sweep_variants: bool = True, compare_policies: bool = True,
                 sweep_deals: int | None = None, threads: int | None = None,
                 main: Any = None, force: bool = False,
                 progress: Callable[[str], None] | None = None, run_dir: Any = None,
                 scheduler: str | None = None, workers: int | None = None,
                 chunk: int | None = None, unfinished_from: str | None = None,
                 time_limit: float | None = None) -> Report:
    """Run the simulations of a report and write its files.

    Parameters
    ----------
    rules : Rules
    policies : a policy name or Policy (every seat), or one per seat
    n_deals : int
        Deals of the main run (>= 1).
    seed : int
        Seed of every run (0 … 2**64 - 1).
    out_dir : path, optional
        Default :func:`default_out_dir` (a new directory in the working directory). Only
        its last level is created.
    formats : ``"pdf,png"`` or an iterable of ``pdf``/``png``
        Figure files to write; CSVs and ``report.json`` are always written.
    sweep_players, sweep_variants, compare_policies : bool
        Run and draw the player-count sweep, the variants sweep, the policy comparison.
    sweep_deals : int, optional
        Deals per sweep run (default :func:`sweep_deals_for`).
    threads : int, optional
        Threads per run; results do not depend on it.
    main : SimulationResult, optional
        An already simulated main run (``rules``, ``seed`` and ``n_deals`` are taken from
        it), e.g. from ``catchten simulate --report``.
    force : bool
        Write into ``out_dir`` even if it already holds files.
    progress : callable(str), optional
        Told what is being run or drawn.
    run_dir : path, optional
        A run directory (kind ``report``) holding one simulation run directory per run
        (``runs/NN-part``): a killed report loses only chunks in flight, and the same call
        (or ``catchten resume DIR``) finishes it, re-running only what is missing. The
        holdings table (the first :data:`HOLDING_DEALS` deals' rows) is made again.
    scheduler, workers, chunk : where the runs go and their chunk size
        (:func:`catchten_sim.simulate.simulate`); the numbers do not depend on them.
    unfinished_from : str, optional
        The run directory ``main`` was summarized from when it is unfinished: the report
        says "unfinished" (and how to finish it) instead of "interrupted".

    Returns
    -------
    Report

    Raises
    ------
    CatchTenError
        Unknown format, an unwritable or non-empty ``out_dir``, bad deals (fewer than
        ``MIN_REPORT_DEALS``), seed, threads or policies.

    time_limit : float, optional
        Seconds the whole report may take: the runs stop :data:`FIGURE_SECONDS` a figure
        before it (the run under way at a chunk, the others skipped, as with Ctrl-C), and
        the report is built from what ran and says so ("TIME LIMIT").

    Notes
    -----
    Ctrl-C stops the run under way (its deals are kept) and skips the runs still to come;
    the report is then built from what ran: every figure carries "INTERRUPTED after N
    deals", footers state the deals that ran, figure numbers stay those of a full report,
    and ``report.json`` has ``"interrupted": true``.
    """

    t0 = time.perf_counter()
    say = progress or (lambda _msg: None)
    figs_formats = parse_formats(formats)
    if main is not None:
        rules, seed, n_deals = main.rules, main.seed, main.n_deals
        policies = main.policies
    n_deals = check_count("deals", n_deals, 1 if main is not None else MIN_REPORT_DEALS,
                           MAX_DEALS)
    seed = check_seed(seed)
    sweep = sweep_deals_for(n_deals) if sweep_deals is None else \
        check_count("sweep-deals", sweep_deals, MIN_REPORT_DEALS)
    pols, mine, theirs = _split_policies(rules, policies)
    from .run import check_executor_options
    check_executor_options(scheduler, workers)      # before a run directory is made
    _check_report_time(time_limit)
    rd = None
    if run_dir is not None:
        if main is not None:
            raise CatchTenError("run-dir", "not with a main run given",
                                "the main run is simulated into the run directory")
        rd, out_dir, force = _report_run_dir(run_dir, out_dir, force, {
            "kind": "report", "rules": rules.to_dict(), "policies": [p.label for p in pols],
            "seed": seed, "deals": n_deals, "sweep_deals": sweep, "chunk": chunk,
            "sweep_players": bool(sweep_players), "sweep_variants": bool(sweep_variants),
            "compare_policies": bool(compare_policies), "formats": list(figs_formats)},
            rules)
    out = prepare_out_dir(default_out_dir(rules) if out_dir is None else out_dir, force)
    version = _versions()["catchten_sim"]
    runs = _Runs(rules, seed, threads, chunk, rd, say)
    runs_s = None if time_limit is None else \
        time_limit - FIGURE_SECONDS * len(FIGURE_NUMBERS) - (time.perf_counter() - t0)
    main, timed = _run_within(runs, runs_s, scheduler, workers, (
        main, pols, mine, theirs, n_deals, sweep, sweep_players, sweep_variants,
        compare_policies, unfinished_from))

    say("tables and figures")
    pol_text = _policy_text(mine, theirs, pols)
    total_deals = sum(int(r["deals"]) for r in runs.log)
    stamp = _stamp(main, runs.stopped, timed, total_deals, unfinished_from)
    specs = _figure_specs(rules, main, runs, pol_text, mine != theirs, version)
    left_out = _left_out(rules, specs, sweep_players, sweep_variants,
                         compare_policies) if runs.stopped else []
    written, figures, tables = write_report_figures(out, specs, figs_formats, stamp, {
        "Title": f"Catch the Ten simulation report: {rules.label()}",
        "Author": "catchten_sim", "Subject": f"{pol_text}; {main.n_deals:,} deals; "
                                             f"seed {seed}"
                                             + (f"; {stamp}" if stamp else ""),
        "Creator": f"catchten_sim {version}", "Producer": "matplotlib",
        "CreationDate": None, "ModDate": None}, say)

    sidecar = {
        **_sidecar_head(rules, pols, pol_text, mine, theirs),
        "deals": main.n_deals,
        "sweep_deals": sweep if (runs.players or runs.variants or runs.policies) else None,
        "seed": seed,
        "first_dealer": "rotate",
        "formats": list(figs_formats),
        "figures": figures,
        "files": None,          # with report.json: write_report_sidecar
        "main": main.to_dict(),
        "runs": runs.log,
        "interrupted": runs.stopped,
        "interrupted_after_deals": total_deals if runs.stopped else None,
        "stopped_by": ("time limit" if timed else "Ctrl-C") if runs.stopped else None,
        "time_limit_s": time_limit,
        "left_out": left_out,
        "unfinished_from": unfinished_from if getattr(main, "interrupted", False) else None,
        "versions": _versions(),
        "threads": threads,
        "run_time_s": None,
    }
    write_report_sidecar(out, written, sidecar, t0)
    say(f"report written to {out}")
    return Report(out, sorted(written), figures, sidecar, tables)


def _report_run_dir(run_dir: Any, out_dir: str | Path | None, force: bool,
                    job: dict[str, Any], rules: Rules) -> tuple[Any, str | Path, bool]:
    """The report's run directory (made, or opened again) for ``job``, where its files go
    and whether they may replace files there (:func:`build_report`)."""
    from .run import MANIFEST, RunDir
    # a report run directory made before: its report files are rewritten in place
    # (where the manifest says, unless --out says elsewhere)
    again = isinstance(run_dir, RunDir) or (Path(run_dir) / MANIFEST).exists()
    where = None if out_dir is None and again else \
        str(Path(default_out_dir(rules) if out_dir is None else out_dir).resolve())
    rd = RunDir.create_or_open(run_dir, {**job, "out": where})
    if not rd.compute:
        raise CatchTenError("run-dir", "a report", "summarize lists its runs")
    rd._mkdir(rd.path / "runs")
    return rd, where or rd.manifest["out"], force or again


class _Runs:
    """The simulations of one report (:func:`build_report`): every run logged, the sweeps'
    results by part, and whether a Ctrl-C stopped them (``stopped``: the run under way
    keeps its deals, the runs still to come are skipped and the report is built from what
    ran, and says so)."""

    def __init__(self, rules: Rules, seed: int, threads: int | None, chunk: int | None,
                 rd: Any, say: Callable[[str], None]) -> None:
        self.rules, self.seed, self.threads, self.chunk = rules, seed, threads, chunk
        self.rd, self.say = rd, say
        self.shared: Any = None
        self.log: list[dict] = []
        self.stopped = False
        self.players: list = []
        self.variants: list = []
        self.policies: list = []
        self.hold: pd.DataFrame | None = None
        self.n_hold = 0
        self.limit: Any = None      # the runs' time limit (a TimeLimit), if any

    def run(self, r: Rules, ps: Sequence[Policy], deals: int, what: str,
            reduce: Any = None) -> Any:
        """One simulation of the report (in its own directory under the run directory)."""
        from .simulate import CHUNK, simulate
        self.say(f"{what}: {r.label()}, {_policy_text(ps[0], _split_policies(r, ps)[2])}, "
                 f"{deals:,} deals")
        sub = None if self.rd is None else \
            self.rd.path / "runs" / f"{len(self.log):02d}-{what}"
        res = simulate(r, ps, n_deals=deals, seed=self.seed, threads=self.threads,
                       reduce=reduce, run_dir=sub, executor=self.shared,
                       chunk=CHUNK if self.chunk is None else self.chunk)
        self.log.append({"part": what, "rules": r.to_dict(), "label": r.label(),
                         "policies": [p.label for p in res.policies], "deals": res.n_deals,
                         "seed": self.seed, "p_caught": res.ten["p_caught"],
                         "elapsed_s": round(res.elapsed_s, 3),
                         "interrupted": res.interrupted})
        if res.interrupted or (self.limit is not None and self.limit.hit):
            self.stopped = True
        return res

    def all(self, main: Any, pols: Sequence[Policy], mine: Policy, theirs: Policy,
            n_deals: int, sweep: int, sweep_players: bool, sweep_variants: bool,
            compare_policies: bool, unfinished_from: str | None) -> Any:
        """The main run (unless given), the sweeps asked for and the holdings table;
        returns the main run."""
        rules, seed = self.rules, self.seed
        if main is None:
            main = self.run(rules, pols, n_deals, "main")
        else:
            self.stopped = bool(getattr(main, "interrupted", False)) and not unfinished_from
            self.log.append({"part": "main", "rules": rules.to_dict(), "label": rules.label(),
                             "policies": [p.label for p in main.policies],
                             "deals": main.n_deals, "seed": seed,
                             "p_caught": main.ten["p_caught"],
                             "elapsed_s": round(main.elapsed_s, 3)})
        try:        # Ctrl-C anywhere in the sweeps: keep what ran, say so, build the report
            self._sweeps(mine, theirs, sweep, sweep_players, sweep_variants,
                         compare_policies)
            if not self.stopped:
                self.n_hold = min(int(main.n_deals), HOLDING_DEALS)
                self.say(f"holdings: which honours each side was dealt, first "
                         f"{self.n_hold:,} deals")
                self.hold = T.holdings_table(rules, pols, n_deals=self.n_hold, seed=seed,
                                             threads=self.threads)
                if self.limit is not None and self.limit.hit:
                    self.hold, self.stopped = None, True    # cut short: not all its deals
        except KeyboardInterrupt:
            self.stopped = True
            self.say("interrupted: building the report from what ran")
        return main

    def _sweeps(self, mine: Policy, theirs: Policy, sweep: int, sweep_players: bool,
                sweep_variants: bool, compare_policies: bool) -> None:
        from .policies import seat_policies
        rules = self.rules
        if sweep_players:
            combos = [(Policy.HEURISTIC, Policy.HEURISTIC), (Policy.RANDOM, Policy.RANDOM)]
            if mine != theirs:
                combos.append((mine, theirs))
            for m_, t_ in combos:
                for r in _player_rules(rules):
                    if not self.stopped:
                        self.players.append(self.run(r, seat_policies(r, m_, t_), sweep,
                                                     "players"))
        if sweep_variants:
            for label, kind, r in variant_rules(rules):
                if self.stopped:
                    break
                self.variants.append((label, kind, self.run(
                    r, seat_policies(r, mine, theirs), sweep, "variants")))
        if compare_policies:
            for m_ in (Policy.HEURISTIC, Policy.RANDOM):
                for t_ in (Policy.HEURISTIC, Policy.RANDOM):
                    if self.stopped:
                        break
                    whose = TenBySide(rules)
                    res = self.run(rules, seat_policies(rules, m_, t_), sweep, "policies",
                                   reduce=whose)
                    self.policies.append((m_.label, t_.label, res, whose.load(res.extra)))


def _figure_specs(rules: Rules, main: Any, runs: _Runs, pol_text: str, mixed: bool,
                  version: str) -> list[tuple[str, pd.DataFrame, Callable, dict]]:
    """Each figure of the report as ``(name, table, plot function, its style)``, in page
    order (``mixed``: side 0's policy differs from the others')."""
    seed = runs.seed
    cut = ""
    footer_main = (f"{cut}Rules: {rules.label()}  \u00b7  policies: {pol_text}  \u00b7  "
                   f"{main.n_deals:,} deals  \u00b7  seed {seed}  \u00b7  the deal rotates  "
                   f"\u00b7  95% intervals  \u00b7  catchten_sim {version}")

    def footer_sweep(what: str, pol: str, runs: Sequence[Any]) -> str:
        ns = sorted({int(r.n_deals) for r in runs})
        per = (f"{ns[0]:,} deals per run" if len(ns) == 1 else
               f"{ns[0]:,} to {ns[-1]:,} deals per run")
        return (f"{cut}{what}\nPolicies: {pol}  \u00b7  {per}  \u00b7  "
                f"seed {seed}  \u00b7  95% intervals  \u00b7  catchten_sim {version}  "
                f"\u00b7  main run: {rules.label()}, {main.n_deals:,} deals")

    players_runs, variant_runs, policy_runs = runs.players, runs.variants, runs.policies
    given = rules.given_variants()
    given_txt = (" " + " ".join(k if v is True else f"{k}={v}" for k, v in sorted(given.items()))
                 if given else "")
    specs: list[tuple[str, pd.DataFrame, Callable, dict]] = []
    summary = T.summary_table(main)
    specs.append(("summary", summary, P.plot_summary, {
        "title": T.finding_summary(summary, rules.label(), pol_text),
        "subtitle": "",
        "rules_lines": _rules_lines(rules, pol_text, main.n_deals,
                                    _sweep_text(players_runs, variant_runs, policy_runs),
                                    seed, version),
        "footer": footer_main}))
    if players_runs:
        tp = T.ten_by_players_table(players_runs)
        ns = sorted(set(tp["players"]))
        rng = f"{ns[0]}\u2013{ns[-1]}p" if len(ns) > 1 else f"{ns[0]}p"
        specs.append(("ten_by_players", tp, P.plot_ten_by_players, {
            "title": T.finding_players(tp),
            "footer": footer_sweep(f"Rules: {rules.preset} {rng}{given_txt}, one run per "
                                   "player count",
                                   " / ".join(dict.fromkeys(tp["policy"])) + " (all seats"
                                   + (", or side 0 vs the others" if mixed else "")
                                   + ")", players_runs)}))
    dist = T.points_distribution_table(main)
    specs.append(("points_distribution", dist, P.plot_points_distribution, {
        # a histogram of every deal: no intervals drawn, so the footer promises none
        "title": T.finding_points(dist),
        "footer": footer_main.replace("  \u00b7  95% intervals", "")}))
    adv = T.seat_advantage_table(main)
    specs.append(("seat_advantage", adv, P.plot_seat_advantage, {
        "title": T.finding_advantage(adv), "footer": footer_main}))
    conv = T.convergence_table(main)
    specs.append(("convergence", conv, P.plot_convergence, {
        "title": T.finding_convergence(conv), "footer": footer_main}))
    fate = T.fate_table(main)
    if len(fate):
        specs.append(("fate_by_holder", fate, P.plot_fate_heatmap, {
            "title": T.finding_fate(T.fate_by_trumps_table(main)), "footer": footer_main,
            "n_players": rules.players}))
    hold = runs.hold
    if hold is not None and len(hold):
        specs.append(("holding_value", hold, P.plot_holding_value, {
            "title": T.finding_holding(hold), "figsize": (10.0, 8.5),
            "footer": footer_main.replace(f"{main.n_deals:,} deals",
                                          f"the first {runs.n_hold:,} of the "
                                          f"{main.n_deals:,} deals")}))
    if variant_runs:
        vt = T.variants_table(variant_runs)
        specs.append(("variants", vt, P.plot_variants, {
            "title": T.finding_variants(vt),
            "footer": footer_sweep(f"Baseline: {rules.label()}; presets at "
                                   f"{rules.players} players; target, tie, revoke and "
                                   "game_at_once change games, not deals: not shown",
                                   pol_text, [r for _, _, r in variant_runs])}))
    if policy_runs:
        pt = T.policies_table(policy_runs)
        specs.append(("policies", pt, P.plot_policies, {
            "title": T.finding_policies(pt),
            "footer": footer_sweep(f"Rules: {rules.label()}", "as in each row",
                                   [run[2] for run in policy_runs])}))
    return specs


def simulation_figures(main: Any) -> list[tuple[str, pd.DataFrame, Callable, dict]]:
    """The report's figures of one simulation result alone (no sweeps, no holdings table),
    as :func:`_figure_specs` gives them, each style with its stamp if the run was cut short
    (for the page's simulate panel)."""
    pols, mine, theirs = _split_policies(main.rules, main.policies)
    runs = _Runs(main.rules, main.seed, None, None, None, lambda _msg: None)
    stamp = (f"INTERRUPTED after {main.n_deals:,} of {main.requested:,} deals"
             if main.interrupted else None)
    return [(n, df, fn, {**style, "stamp": stamp} if stamp else style)
            for n, df, fn, style in _figure_specs(main.rules, main, runs,
                                                  _policy_text(mine, theirs, pols),
                                                  mine != theirs, _versions()["catchten_sim"])]


def runs_status(run_dir: Any) -> list[dict[str, Any]]:
    """The runs of a report's run directory so far: ``part``, ``rules`` (label),
    ``policies``, ``deals`` done and ``requested`` (from the chunk files, nothing run).

    Raises
    ------
    CatchTenError
        Not a report run directory.
    """
    from .run import open_of_kind
    from .simulate import summarize
    rd, _ = open_of_kind(run_dir, ("report",), "a report", lambda m: None)
    out = []
    for sub in sorted((rd.path / "runs").glob("[0-9][0-9]-*")):
        try:
            res = summarize(sub)
            done, req, label = res.n_deals, res.requested, res.rules.label()
            pols = res.policy_label()
        except CatchTenError:             # started, no chunk finished yet
            done, req, label, pols = 0, None, "?", "?"
        out.append({"part": sub.name, "rules": label, "policies": pols, "deals": done,
                    "requested": req})
    return out


def report_state(out_dir: str | Path, job: dict[str, Any], runs: Sequence[Any],
                 every_run: bool = True) -> tuple[bool, str]:
    """Whether the report files in ``out_dir`` are current for finished runs, without
    running anything.

    ``(True, "")`` when ``out_dir/report.json`` is whole (not interrupted or unfinished),
    was made for ``job`` (its ``rules``, ``seed``, ``deals``, ... equal the report's), every
    run of ``runs`` (:class:`catchten_sim.run.RunDir`) has all its chunks (with
    ``every_run``, a report run directory's runs: as many as the report lists), and every
    file the report lists is there and newer than every chunk of ``runs``. Else ``(False,
    why)``: ``why`` names the file missing or older than the chunks, or is ``""`` when
    there is no whole report of finished runs (a resume then runs what is missing).
    """
    from .run import RunDir
    out = Path(out_dir)
    try:
        side = json.loads((out / "report.json").read_text(encoding="utf-8"))
        if not isinstance(side, dict) or side.get("interrupted") \
                or side.get("unfinished_from") or any(side.get(k) != v for k, v in job.items()):
            return False, ""
        whole = all(isinstance(r, RunDir) and r.complete() for r in runs) and \
            (not every_run or len(runs) == len(side.get("runs") or ()))
        if not whole:
            return False, ""
        newest = max((f.stat().st_mtime_ns for r in runs for f in r.chunk_files()), default=0)
        for name in side.get("files") or ():
            f = out / str(name)
            if not f.is_file():
                return False, f"{f} is missing"
            if f.stat().st_mtime_ns < newest:
                return False, f"{f} is older than the runs' chunks"
    except (OSError, ValueError, TypeError, AttributeError):
        return False, ""
    return True, ""


def files_state(run_dir: Any) -> tuple[bool, str]:
    """:func:`report_state` of a report run directory (kind ``report``): its report files
    (in the manifest's ``out``) against its runs (``DIR/runs/NN-part``).

    Raises
    ------
    CatchTenError
        Not a report run directory, or one of its runs has a bad manifest.
    """
    from .run import RunDir, open_of_kind
    rd, _ = open_of_kind(run_dir, ("report",), "a report", lambda m: None)
    m = rd.manifest
    runs = [RunDir.open(sub) for sub in sorted((rd.path / "runs").glob("[0-9][0-9]-*"))]
    return report_state(str(m.get("out") or ""),
                        {k: m.get(k) for k in ("rules", "seed", "deals", "formats")}, runs)


def from_run_dir(run_dir: Any, *, threads: int | None = None, scheduler: str | None = None,
                 workers: int | None = None, progress: Callable[[str], None] | None = None
                 ) -> Report:
    """Finish the report of a run directory: its runs' missing chunks, then the report
    files (written again to the directory recorded in the manifest).

    Raises
    ------
    CatchTenError
        Not a report run directory, a bad manifest, or a summary (``run_dir.compute``
        false: use :func:`runs_status`).
    """
    from .run import manifest_rules, open_of_kind

    def parse(m: dict[str, Any]) -> tuple[Rules, tuple[Policy, ...], dict[str, Any]]:
        kw = {k: m[k] for k in ("sweep_players", "sweep_variants", "compare_policies",
                                "chunk")}
        kw.update(n_deals=int(m["deals"]), seed=int(m["seed"]),
                  sweep_deals=int(m["sweep_deals"]), formats=m["formats"],
                  out_dir=m["out"])
        return manifest_rules(m), tuple(Policy.parse(p) for p in m["policies"]), kw

    rd, (rules, pols, kw) = open_of_kind(run_dir, ("report",), "a report", parse)
    return build_report(rules, pols, threads=threads, scheduler=scheduler, workers=workers,
                        progress=progress, run_dir=rd, force=True, **kw)
