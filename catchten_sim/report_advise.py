"""Readable text for ``catchten advise`` and ``catchten odds`` (no logic: formatting)."""
from __future__ import annotations

import math

import click

from .advise import STOP_REASONS, Advice, trump_answer
from .odds import Odds
from .cards import cards_of_mask, format_card
from .rules import NO_TRUMPS
from .compile_notice import compiling_note as _compiling


def _pm(e, pct: bool = False, digits: int = 2) -> str:
    if pct:
        return f"{100 * e.mean:5.1f}% ({100 * e.lo:4.1f}-{100 * e.hi:4.1f})"
    if math.isnan(e.lo):
        return f"{e.mean:6.{digits}f}"
    return f"{e.mean:6.{digits}f} ({e.lo:.{digits}f} to {e.hi:.{digits}f})"


def _fx(x: float, digits: int, sign: bool = False) -> str:
    """``x`` with ``digits`` decimals; a value that is not 0 but would round to 0 gets up
    to two more decimals, else ``<0.0001`` (``-<0.0001`` below 0): an interval that
    excludes 0 never prints as ``[0.00, 0.00]``."""
    flag = "+" if sign else ""
    t = f"{x:{flag}.{digits}f}"
    if x == 0 or math.isnan(x) or float(t) != 0:
        return t
    for d in (digits + 1, digits + 2):
        t = f"{x:{flag}.{d}f}"
        if float(t) != 0:
            return t
    return ("-" if x < 0 else flag) + f"<{10.0 ** -(digits + 2):.{digits + 2}f}"


def _p(x: float) -> str:
    """A percentage with one decimal, ``100`` and ``0`` without it (a share that is not 0
    but rounds to 0.0 keeps its digits: :func:`_fx`)."""
    t = _fx(100 * x, 1)
    return t[:-2] if t in ("100.0", "0.0", "-0.0") else t


def _iv(e, pct: bool = False) -> str:
    """``mean [lo, hi]``: the 95% interval as computed (not necessarily symmetric)."""
    if e is None or e.mean is None or math.isnan(e.mean):
        return "n/a"
    if pct:
        if math.isnan(e.lo):
            return f"{_p(e.mean)}%"
        return f"{_p(e.mean)}% [{_p(e.lo)}, {_p(e.hi)}]"
    if math.isnan(e.lo):
        return _fx(e.mean, 2)
    return f"{_fx(e.mean, 2)} [{_fx(e.lo, 2)}, {_fx(e.hi, 2)}]"


def _dd_table(a: Advice, con) -> None:
    """The table of an evaluator that gives the objective only (dd): each card's mean
    value with its interval (or exact), and the share of deals in which it is best."""
    from rich import box
    from rich.table import Table
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for c in ("card", "double-dummy value", "best in"):
        t.add_column(c, justify="left" if c == "card" else "right", no_wrap=True)
    for x in a.candidates:
        e = x.estimates[a.objective]
        name = x.name + (f"={format_card(x.equivalent_to)}"
                         if x.equivalent_to is not None else "")
        t.add_row(name, f"{e.mean:.2f}" if a.z == 0 else _iv(e),
                  "" if x.best_share is None else f"{_p(x.best_share)}%")
    con.print("\nPer card: our side's points minus the others', best play by all with all "
              "hands\nseen" + (" (exact):" if a.z == 0 else " (mean [95% interval]):"),
              markup=False, highlight=False)
    con.print(t)
    con.print("best in: the share of the deals in which the card is a best card.",
              markup=False, highlight=False)


def _candidate_tables(a: Advice, console=None) -> None:
    """Two tables, each under 80 columns: points (and P(win)), then the Ten of trumps
    (with dd: the one table of :func:`_dd_table`)."""
    from rich import box
    from rich.table import Table

    from .report_text import _console
    con = console or _console
    if "points" not in a.candidates[0].estimates:
        _dd_table(a, con)
        return
    # no trumps (jaques dealer_declares): no Ten of trumps, the second table has the
    # card points only, and is left out when they are all 0 (jaques scores none)
    has_ten = a.position.info().trump < NO_TRUMPS
    pts = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    ten = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for t, cols in ((pts, ["card", "our points", "minus best opponents"]
                     + (["P(win the game)"] if a.p_win_available else [])),
                    (ten, ["card"] + (["ends with us", "we catch theirs", "they catch ours"]
                                      if has_ten else []) + ["card pts"])):
        for c in cols:
            t.add_column(c, justify="left" if c == "card" else "right", no_wrap=True)
    for x in a.candidates:
        e = x.estimates
        name = x.name + (f"={format_card(x.equivalent_to)}"
                         if x.equivalent_to is not None else "")
        pts.add_row(name, _iv(e["points"]), _iv(e["diff"]),
                    *([_iv(e["p_win"], True)] if a.p_win_available else []))
        ten.add_row(name, *([_iv(e["ten_ours"], True), _iv(e["caught_by_us"], True),
                             _iv(e["caught_by_them"], True)] if has_ten else []),
                    f"{e['card_points'].mean:.2f}")
    con.print("\nPoints of our side this hand, per card (mean [95% interval]):",
              markup=False, highlight=False)
    con.print(pts)
    if has_ten:
        con.print("The Ten of trumps, per card:", markup=False, highlight=False)
        con.print(ten)
    elif any(x.estimates["card_points"].mean != 0 for x in a.candidates):
        con.print("Card points, per card (no trumps: no Ten of trumps):", markup=False,
                  highlight=False)
        con.print(ten)
    if any(x.equivalent_to is not None for x in a.candidates):
        con.print("X=Y: X is played exactly as Y (cards next in rank are worth the same).",
                  markup=False, highlight=False)


def print_advice(a: Advice, console=None) -> None:
    """Print an :class:`Advice`; the tables fit 80 columns (``console``: a rich Console,
    default the terminal)."""
    pos = a.position
    info = pos.info()
    r = pos.rules
    from .report_text import _console
    con = console or _console

    def echo(text: str = "") -> None:
        con.print(text, markup=False, highlight=False)

    echo(f"{r.label()}  seat {info.seat} (side {r.side_of(info.seat)}) to play, "
         f"trick {info.trick_index + 1}" + (f", set {info.set_index + 1}" if r.n_sets > 1
                                            else "")
         + f"; trumps {'SHDC'[info.trump] if info.trump < 4 else 'none'}")
    echo(f"hand: {' '.join(format_card(c) for c in cards_of_mask(info.my_hand))}"
         + (f"   trick so far: {' '.join(format_card(c) for _, c in info.trick)}"
            if info.trick else "   (on lead)"))
    deals = (f"exact ({a.n_samples:,} deals: every consistent deal)" if a.exact else
             f"{a.n_samples:,} sampled deals (of {a.n_consistent:.3g} consistent)")
    pols = "/".join(sorted({p.label for p in a.policies}))
    echo(f"{deals}, evaluator {a.evaluator}, policies {pols}"
         f", objective {a.objective}, seed {a.seed}, {a.elapsed_s:.2f} s"
         + _compiling(a.compile_s))
    echo(f"stopped: {STOP_REASONS[a.stop]}" + (" (PARTIAL)" if a.partial else ""))
    echo(a.intervals)
    _candidate_tables(a, con)
    if a.margin is None:
        echo(f"best: {format_card(a.best)}" + (" (the only legal card)" if a.stop == "single"
                                               else " (every card scored the same)"))
    else:
        d = a.margin.diff
        v = a.margin.verdict
        span = (f"paired 95%: {_fx(d.lo, 3, True)} to {_fx(d.hi, 3, True)}" if a.z > 0 else
                "exact, every consistent deal")
        if v == "no practical difference":
            echo(f"best: no practical difference between {format_card(a.best)} and "
                 f"{a.second}: {_fx(d.mean, 3, True)} {a.objective} ({span}; inside "
                 f"the practical margin ±{a.practical_margin:g})")
        else:
            verdict = "separated at 95%" if v == "separated" else "not separated at 95%"
            if a.z == 0:
                verdict = "no sampling error"
            echo(f"best: {format_card(a.best)}, by {_fx(d.mean, 3, True)} {a.objective} over "
                 f"{a.second} ({span}; {verdict})")
    if a.trump_lead is not None:
        d = a.trump_lead.diff
        ans = trump_answer(a.trump_lead)
        echo(f"lead a trump? {ans}: best trump lead {format_card(a.trump_lead.a)} vs best "
             f"other lead {format_card(a.trump_lead.b)}: {_fx(d.mean, 3, True)} {a.objective} "
             + (f"(paired 95%: {_fx(d.lo, 3, True)} to {_fx(d.hi, 3, True)})" if a.z > 0
                else "(exact)"))
    if a.model_note:
        echo(f"MODEL: {a.model_note}")
    if a.note:
        echo(f"note: {a.note}")


def print_explain(a: Advice, deals) -> None:
    echo = click.echo
    r = a.position.rules
    for d in deals:
        echo("")
        echo(f"sampled deal {d['sample']}: hands now "
             + "; ".join(f"seat {s}: {' '.join(cs)}" for s, cs in d["hands"].items()))
        for t in d["tricks"]:
            echo(f"  trick {t['trick'] + 1}: seat {t['leader']} leads  "
                 f"{' '.join(t['cards'])}  -> seat {t['winner']}")
        echo("  hand totals by side: " + ", ".join(
            f"side {s} ({'+'.join(str(x) for x in r.seats_of(s))}) {v}"
            for s, v in enumerate(d["totals"])))


def print_odds(o: Odds) -> None:
    echo = click.echo
    info = o.info
    r = info.rules
    echo(f"{r.label()}  seat {info.seat} (side {r.side_of(info.seat)}), dealer {info.dealer}, "
         f"turn-up {'none' if info.turnup is None else format_card(info.turnup)}; hand "
         f"{' '.join(format_card(c) for c in cards_of_mask(info.my_hand))}")
    if o.partial:
        echo(f"PARTIAL: interrupted after {o.n_deals:,} of {o.requested:,} deals")
    if o.exact:
        echo(f"exact ({o.n_deals:,} deals): every deal consistent with the hand played once")
    echo(f"{o.n_deals:,} deal{'' if o.n_deals == 1 else 's'} consistent with the hand, "
         f"played out by "
         f"{'/'.join(sorted({p.label for p in o.policies}))}; seed {o.seed}; "
         f"{o.elapsed_s:.2f} s" + _compiling(o.compile_s))
    echo(f"  our side's hand points     {_pm(o.points)}")
    echo(f"  minus best opposing side   {_pm(o.diff)}")
    echo(f"  card points                {_pm(o.card_points)}")
    echo(f"  P(our side ends with Ten)  {_pm(o.ten_ours, True)}")
    echo(f"  P(Ten dealt to our side)   {_pm(o.ten_holder_ours, True)}")
    if o.ten_lost is not None:
        echo(f"  P(we lose our Ten | ours)  {_pm(o.ten_lost, True)}  "
             f"(of {o.ten_lost.n:,} deals)")
    echo("  distribution of our side's hand points:")
    cum = 0.0
    for k, p in sorted(o.distribution.items()):
        cum += p
        if p >= 0.002:
            echo(f"    {k:3d}  {100 * p:5.1f}%  {'#' * int(round(60 * p))}")
