"""Every result as terminal text, in one idiom: ``print_X(result, ...)`` writes the text of
one kind of result to standard output (the CLI's; tables through the rich console
:data:`_console`, whose ``console`` argument a caller may replace, plain lines through
``click.echo``). Formatting only, no statistics: the numbers come from the results.

Results whose own modules spell their text (``GamesResult.to_text``, ``MatchResult.to_text``)
are printed from here too, so the command line has one place to look; a solve's text is
spelled here (:func:`format_solution`, in the advice's words for its values).
"""
from __future__ import annotations

import math
import os
import re
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING, Any

import click
from rich import box
from rich.console import Console, ConsoleDimensions
from rich.table import Table

from .cards import cards_of_mask, format_card
from .compile_notice import compiling_note as _compiling
from .rules import NO_TRUMPS

if TYPE_CHECKING:
    from .advise import Advice
    from .odds import Odds

#: the width of text sent to a pipe or file without COLUMNS: every line printed fits 80
#: columns (a script wanting whole rows reads ``--json``; a wider pipe sets COLUMNS)
PIPE_WIDTH = 80


def strip_line_ends(text: str) -> str:
    """``text`` with the spaces at the end of every line removed (a table's padding: a
    line of spaces only becomes an empty line)."""
    return "\n".join(line.rstrip(" ") for line in text.split("\n"))


class _Out(Console):
    """The CLI's stdout console, its width decided at every print: ``COLUMNS`` when set
    (a terminal or a pipe), else a terminal's own width, else :data:`PIPE_WIDTH`; no line
    it writes ends in spaces."""

    @property
    def size(self) -> ConsoleDimensions:
        cols = os.environ.get("COLUMNS", "").strip()
        if cols.isdigit() and int(cols) > 0:
            return ConsoleDimensions(int(cols), super().size.height)
        if self.file.isatty():
            return super().size
        return ConsoleDimensions(PIPE_WIDTH, 25)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]

    def _render_buffer(self, buffer: Any) -> str:
        return strip_line_ends(super()._render_buffer(buffer))


_console = _Out(highlight=False, soft_wrap=False)


def line_width(stream: Any) -> int:
    """The width lines sent to ``stream`` are wrapped to, by :class:`_Out`'s rule:
    ``COLUMNS`` when set, else a terminal's own width, else :data:`PIPE_WIDTH`."""
    cols = os.environ.get("COLUMNS", "").strip()
    if cols.isdigit() and int(cols) > 0:
        return int(cols)
    try:
        if stream.isatty():
            return shutil.get_terminal_size().columns
    except (AttributeError, ValueError, OSError):
        pass
    return PIPE_WIDTH


#: a command to copy in a message (``catchten resume DIR``): never split across lines
_COMMAND = re.compile(r"\bcatchten [a-z]+ [^\s;)]+")


def fit(text: str, width: int | None) -> str:
    """``text`` with every line longer than ``width`` wrapped at spaces, its continuation
    lines indented two more than the line (a word longer than the width, a path, is kept
    whole, and so is a command to copy, ``catchten resume DIR``: on a line of its own
    when it does not fit the rest)."""
    if not width:
        return text
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip(" "))]
        glued = _COMMAND.sub(lambda m: m.group(0).replace(" ", "\0"), line.strip())
        out.append(textwrap.fill(glued, width, initial_indent=indent,
                                 subsequent_indent=indent + "  ", break_long_words=False,
                                 break_on_hyphens=False).replace("\0", " "))
    return "\n".join(out)


def echo(text: str = "", err: bool = False) -> None:
    """``click.echo`` of plain text, each line wrapped to the stream's :func:`line_width`
    (80 columns when COLUMNS=80; error lines stay one line and do not come here)."""
    stream = sys.stderr if err else sys.stdout
    click.echo(strip_line_ends(fit(str(text), line_width(stream))), err=err)


def _pct(x: float | None) -> str:
    return "n/a" if x is None or x != x else f"{100 * x:.2f}%"


def print_rules(d: dict[str, Any]) -> None:
    """Print :meth:`Rules.describe` output."""
    t = Table(title=f"Rules: {d['preset']}, {d['players']} players", show_header=False,
              title_justify="left")
    t.add_column("rule", style="bold")
    t.add_column("value")
    t.add_row("deck", f"{d['deck']['size']} cards: {d['deck']['cards']}")
    t.add_row("dealing", d["dealing"])
    t.add_row("trumps", d["turnup"])
    t.add_row("sides", "; ".join(f"side {s['side']}: seats {', '.join(map(str, s['seats']))}"
                                 for s in d["sides"]))
    t.add_row("share", f"{d['share']} cards per side per {d['scoring_unit']}")
    t.add_row("card points", d["card_points"])
    t.add_row("trump order", d["trump_order"] + "  (high to low)")
    t.add_row("plain suits", d["plain_order"])
    t.add_row("honours", ", ".join(f"{k} {v}" for k, v in d["honours"].items()))
    if d.get("no_trump_honours"):
        t.add_row("at no trumps", ", ".join(f"{k} {v}" for k, v in d["no_trump_honours"].items())
                  + " of every suit")
    t.add_row("target", str(d["target"]) + ("  (game at once)" if d["game_at_once"] else ""))
    t.add_row("several reach it", d["tie"] + (f": {d['count_out_order']}"
                                              if d["count_out_order"] else ""))
    t.add_row("revoke", d["revoke"])
    t.add_row("first dealer", d["first_dealer"])
    from .rules import spell_value
    switches = ", ".join(f"{k}={spell_value(v)}"
                         for k, v in sorted(d["switches_in_effect"].items()))
    t.add_row("switches", switches + "  (those that apply here; all: --switches)")
    _console.print(t)


def _num(x: float | None, fmt: str) -> str:
    """``x`` formatted, or ``n/a`` when it is undefined (e.g. a standard error of one deal)."""
    return "n/a" if x is None or x != x else format(x, fmt)


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def print_simulation(res, console: Console | None = None) -> None:
    """Print a :class:`SimulationResult` as a short header and a table by position, laid
    out to fit 80 columns."""
    con = console or _console
    d = res.to_dict()
    ten = d["ten"]
    n = res.rules.players
    lo, hi = ten["wilson95"]
    compiling = _compiling(d.get("compile_s", 0.0))
    con.print(f"[bold]{res.rules.label()}[/bold]  policies: {d['policies']['label']}  "
              f"deals: {d['deals']:,}  seed: {d['seed']}  "
              + (f"({d['elapsed_s']:.1f} s{compiling} on {res.executor}, deal rotates)"
                 if d["threads"] and getattr(res, "executor", "").startswith("Dask") else
                 f"({d['elapsed_s']:.1f} s{compiling}, {_plural(d['threads'], 'thread')}, "
                 "deal rotates)"
                 if d["threads"] else "(read from a run directory, deal rotates)"))
    if ten["in_play"]:
        con.print(
            f"Ten of trumps caught: [bold]{_pct(ten['p_caught'])}[/bold] "
            f"(95% CI {_pct(lo)} to {_pct(hi)}) of {_plural(ten['in_play'], 'deal')} with "
            f"the Ten in play; saved by its holder's side {_pct(ten['p_saved'])}"
            + (f"; dead in {_plural(ten['dead'], 'deal')}" if ten["dead"] else "")
            + (f"; no trumps in {_plural(ten['no_trumps'], 'deal')}" if ten["no_trumps"] else ""))
    else:
        con.print("The Ten of trumps was never in play.")
    t = Table(title="Mean points per deal of the side holding each position",
              title_justify="left", box=box.SIMPLE_HEAD, caption_justify="left",
              pad_edge=False,
              caption="advantage: the position's total minus the mean over all positions")
    for col in ("position", "honours", "card\npoints", "total", "advantage\n(95% CI)",
                "tricks\nside / seat"):
        t.add_column(col, justify="right", no_wrap=True)
    for p in d["positions"]:
        role = {1: " eldest", n: " dealer"}.get(p["position"], "")
        a = p["advantage"]
        ci = a["ci95"] or [None, None]
        t.add_row(f"{p['position']}{role}",
                  _num(p["honours"]["mean"], ".2f"),
                  _num(p["card_points"]["mean"], ".2f"),
                  _num(p["total"]["mean"], ".2f"),
                  f"{_num(a['mean'], '+.2f')} "
                  + (f"({_num(ci[0], '+.2f')} to {_num(ci[1], '+.2f')})"
                     if ci[0] is not None else "(n/a)"),
                  f"{_num(p['side_tricks']['mean'], '.2f')} / "
                  f"{_num(p['seat_tricks']['mean'], '.2f')}")
    con.print(t)
    if len({x for x in d["policies"]["seats"]}) > 1:
        s = Table(title="Per side (side 0 holds seat 0)", title_justify="left",
                  box=box.SIMPLE_HEAD)
        for col in ("side", "seats", "policy", "total"):
            s.add_column(col, justify="right")
        for side in d["sides"]:
            s.add_row(str(side["side"]), " ".join(map(str, side["seats"])),
                      "/".join(side["policies"]),
                      f"{_num(side['total']['mean'], '.2f')} ± "
                      f"{_num(side['total']['se'], '.2f')}")
        con.print(s)


def print_score(result: dict[str, Any]) -> None:
    """Print a scored hand record or game record."""
    if "running" in result:
        t = Table(title="Game", title_justify="left")
        t.add_column("hand", justify="right")
        for side in result["sides"]:
            t.add_column(f"side {side['side']} (seats {' '.join(map(str, side['seats']))})",
                         justify="right")
        for i, row in enumerate(result["running"]):
            t.add_row(str(i), *(str(x) for x in row))
        _console.print(t)
        if result.get("finished"):
            extra = f" at the {result['step']} step" if result.get("step") else ""
            _console.print(f"Winner: side {result['winner']} (seats "
                           f"{' '.join(map(str, result.get('winner_seats', [])))}), "
                           f"{result['how']}{extra}, in hand {result['hand']}")
        else:
            _console.print(f"Unfinished after {result['hands_scored']} hands "
                           f"(target {result['target']}).")
        return
    t = Table(title=("Hand" if result.get("finished") else "Hand (unfinished: completed "
                     "tricks only)") + (f", trumps {result['trumps']}" if result.get("trumps")
                                        else ""), title_justify="left")
    for col in ("side", "seats", "honours", "cards taken", "card points", "total"):
        t.add_column(col, justify="right")
    for s in result["sides"]:
        t.add_row(str(s["side"]), " ".join(map(str, s["seats"])), str(s["honours"]),
                  str(s["cards_taken"]), str(s["card_points"]), str(s["total"]))
    _console.print(t)
    ten = result.get("ten") or {}
    if ten.get("holder") is None:
        _console.print("Ten of trumps: not in play.")
    elif ten.get("taken_by") is None:
        _console.print(f"Ten of trumps: dealt to seat {ten['holder']}, not yet taken.")
    else:
        _console.print(f"Ten of trumps: dealt to seat {ten['holder']}, taken by seat "
                       f"{ten['taken_by']}: {'caught' if ten['caught'] else 'saved'}.")
    rv = result.get("revoke")
    if rv:
        eff = rv.get("effect") or {}
        if "loses_game" in eff:
            what = f"side {eff['loses_game']} loses the game"
        elif "points_to" in eff:
            what = (f"side {eff.get('side')} forfeits its {eff.get('points_lost')} points to "
                    + ", ".join(f"side {k}" for k in eff["points_to"]))
        elif "points_lost" in eff:
            what = f"side {eff.get('side')} loses its {eff['points_lost']} points of this hand"
        else:
            what = "no penalty"
        _console.print(f"Revoke: seat {rv['seat']} played {rv['card']} in trick {rv['trick']} "
                       f"while holding the led suit; penalty {rv['penalty']}: {what}.")


# ---------------------------------------------------------------------------- advise / odds

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
    if math.isnan(e.lo):                # one deal: no interval; a bounded one, its range
        b = getattr(e, "bounds", None)
        return _fx(e.mean, 2) + ("" if b is None or b[0] == b[1]
                                 else f" (in {_fx(b[0], 2)}..{_fx(b[1], 2)})")
    return f"{_fx(e.mean, 2)} [{_fx(e.lo, 2)}, {_fx(e.hi, 2)}]"


def _one_deal(d) -> str:
    """The span said for a difference from one deal: no interval; its proven range when
    the deal is bounded (a mean of midpoints alone would read as a value)."""
    b = getattr(d, "bounds", None)
    return "no interval from fewer than 2 deals" + (
        "" if b is None or b[0] == b[1]
        else f"; proven only within {_fx(b[0], 3, True)} to {_fx(b[1], 3, True)}")


def _dd_table(a: Advice, con) -> None:
    """The table of an evaluator that gives the objective only (dd): each card's mean
    value with its interval (or exact), and the share of deals in which it is best."""
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for c in ("card", "double-dummy value", "best in"):
        t.add_column(c, justify="left" if c == "card" else "right", no_wrap=True)
    for x in a.candidates:
        e = x.estimates[a.objective]
        name = x.name + (f"={format_card(x.equivalent_to)}"
                         if x.equivalent_to is not None else "")
        t.add_row(name, f"{e.mean:.2f}" if a.z == 0 and not a.bounded else _iv(e),
                  "" if x.best_share is None else f"{_p(x.best_share)}%")
    from .explain import measure_words
    con.print(f"\nPer card: {measure_words('diff', 'dd', a.position.rules.n_sides)}, best "
              "play by all with\nall hands seen" + (" (exact):" if a.z == 0 and not a.bounded
                                            else " (mean [95% interval]):"),
              markup=False, highlight=False)
    con.print(t)
    con.print("best in: the share of the deals in which the card is a best card.",
              markup=False, highlight=False)
    _tie_legend(a, con)


def _tie_legend(a: Advice, con) -> None:
    """The legend of ``X=Y`` in a table (a card tied with the best on every deal), naming
    every such pair (more than four: the first two and how many others); nothing when no
    card is tied."""
    from .serve.words import and_list
    what = {"p_win": "P(win)", "points": "points"}.get(a.objective, "point difference")
    tied: dict[str, list[str]] = {}
    for x in a.candidates:
        if x.equivalent_to is not None:
            tied.setdefault(format_card(x.equivalent_to), []).append(x.name)
    for y, xs in tied.items():
        if len(xs) == 1:
            who = f"{xs[0]}={y}: {xs[0]} gave"
        else:      # every pair named ("JC=TC, QC=TC ..."), as the table marks them
            who = and_list([f"{x}={y}" for x in xs]) + ": each gave"
        con.print(f"{who} {y}'s {what} exactly on every deal evaluated (a tie).",
                  markup=False, highlight=False)


def _candidate_tables(a: Advice, console=None) -> None:
    """Two tables, each under 80 columns: points (and P(win)), then the Ten of trumps
    (with dd: the one table of :func:`_dd_table`)."""

    con = console or _console
    if "points" not in a.candidates[0].estimates:
        _dd_table(a, con)
        return
    # no trumps (jaques dealer_declares): no Ten of trumps, the second table has the
    # card points only, and is left out when they are all 0; rules that score no card
    # points (card_points off: jaques, french52) have no card points column
    has_ten = a.position.info().trump < NO_TRUMPS
    from .state import card_points          # the rule asked of its one Python reader
    has_cp = card_points(a.position.rules, a.position.rules.n_dealt) > 0
    pts = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    ten = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    from .explain import minus_opponents
    minus = minus_opponents(a.evaluator, a.position.rules.n_sides, header=True)
    for t, cols in ((pts, ["card", "our points", minus]
                     + (["P(win the game)"] if a.p_win_available else [])),
                    (ten, ["card"] + (["ends with us", "we catch theirs", "they catch ours"]
                                      if has_ten else []) + (["card pts"] if has_cp else []))):
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
                    *([f"{e['card_points'].mean:.2f}"] if has_cp else []))
    con.print("\nPoints of our side this hand, per card (mean [95% interval]):",
              markup=False, highlight=False)
    con.print(pts)
    if has_ten:
        con.print("The Ten of trumps, per card:", markup=False, highlight=False)
        con.print(ten)
    elif has_cp and any(x.estimates["card_points"].mean != 0 for x in a.candidates):
        con.print("Card points, per card (no trumps: no Ten of trumps):", markup=False,
                  highlight=False)
        con.print(ten)
    _tie_legend(a, con)


def _played_by(a: Advice) -> str:
    """What plays after the card: dd's perfect play, or the rollouts' policies (per side
    when the sides differ)."""
    if a.evaluator == "dd":
        return "perfect play, every hand seen"
    from .explain import policy_label
    r = a.position.rules
    me = r.side_of(a.position.info().seat)
    ours = policy_label(p for s, p in enumerate(a.policies) if r.side_of(s) == me)
    others = policy_label(p for s, p in enumerate(a.policies) if r.side_of(s) != me)
    if others in ("", ours):
        return f"{ours} play after the card"
    return f"{ours} play by us, {others} by the opponents, after the card"


def print_advice(a: Advice, console=None) -> None:
    """Print an :class:`Advice`; the tables fit 80 columns (``console``: a rich Console,
    default the terminal)."""
    from .advise import trump_answer
    from .explain import WHICH_TO_TRUST, separation
    pos = a.position
    info = pos.info()
    r = pos.rules
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
             f"{_plural(a.n_samples, 'sampled deal')} (of {a.n_consistent:.3g} consistent)")
    echo(f"{deals}, evaluator {a.evaluator} ({_played_by(a)}), objective {a.objective}, "
         f"seed {a.seed}, {a.elapsed_s:.2f} s" + _compiling(a.compile_s))
    if a.inference is not None:
        inf = a.inference
        echo(inf.get("note") or
             f"deals weighted by inference ({inf['model']} mixed with uniform, eps "
             f"{inf['eps']:g}): {inf['worlds_drawn']:,} drawn, effective size "
             f"{inf['effective_size']:,.1f}")
    echo(f"stopped: {a.stop_reason}" + (" (PARTIAL)" if a.partial else ""))
    echo(a.intervals)
    if a.bounded:
        echo(f"{a.bounded:,} of {a.n_samples:,} deals stopped at the node budget or the clock: "
             "their values are ranges, which the intervals span")
    _candidate_tables(a, con)
    from .explain import too_few_in     # (explain imports the engine: not at start-up)
    from .serve.words import leader_words, only_card, plain_lines, same_as_best
    d_a = a.to_dict()                   # the answer as the page's words read it
    best = format_card(a.best) + same_as_best(d_a)   # "TC (or JC, QC: the same on ..."
    if a.margin is None:
        echo(f"best: {format_card(a.best)} (" + (only_card(d_a) if len(a.candidates)
                                                 == 1 else "every card scored the same") + ")")
    else:
        d = a.margin.diff
        v = a.margin.verdict
        span = (f"paired 95%: {_fx(d.lo, 3, True)} to {_fx(d.hi, 3, True)}"
                if a.z > 0 or a.bounded else "exact, every consistent deal")
        if math.isnan(d.lo):             # a dd run stopped before its second deal
            span = _one_deal(d)
        if v == "no practical difference":
            echo(f"best: no practical difference between {best} and "
                 f"{a.second}: {_fx(d.mean, 3, True)} {a.objective} ({span}; inside "
                 f"the practical margin ±{a.practical_margin:g})")
        elif (few := too_few_in(a.note)) is not None:
            # no card chosen on so few deals: what leads so far, not a "best" (as the page)
            lead = leader_words(d_a)      # "JS leads", "TS, KS and TC are level"
            echo(f"best: none yet (too few deals to choose a card: {few:,}); so far {lead} "
                 + ("" if lead.endswith(" level") else
                    f"by {_fx(d.mean, 3, True)} {a.objective} over {a.second} ") + f"({span})")
        else:
            verdict = separation(v, a.z == 0 and not a.bounded)
            echo(f"best: {best}, by {_fx(d.mean, 3, True)} {a.objective} over "
                 f"{a.second} ({span}; {verdict})")
    if a.trump_lead is not None:
        d = a.trump_lead.diff
        ans = trump_answer(a.trump_lead)
        echo(f"lead a trump? {ans}: best trump lead {format_card(a.trump_lead.a)} vs best "
             f"other lead {format_card(a.trump_lead.b)}: {_fx(d.mean, 3, True)} {a.objective} "
             + (f"({_one_deal(d)})" if math.isnan(d.lo) else
                f"(paired 95%: {_fx(d.lo, 3, True)} to {_fx(d.hi, 3, True)})"
                if a.z > 0 or a.bounded else "(exact)"))
    if (fu := a.fusion.get("summary")) is not None:
        vals = ", ".join(f"{c} {v:+.3f}" for c, v in sorted(
            a.fusion["values"].items(), key=lambda kv: -kv[1]))
        echo(f"one card per information set (fusion-aware, {fu['worlds']:,} deals): "
             f"best {fu['best']}")
        echo(f"  values (as the dd column): {vals}")
    for line in plain_lines(d_a):      # the page's wording (docs/serve.md)
        if line is not None:
            echo(f"in words: {line}")
    for line in a.model_lines or ([f"MODEL: {a.model_note}"] if a.model_note else []):
        echo(line)
    echo(WHICH_TO_TRUST)
    if a.note:
        echo(f"note: {a.note}")


def print_explain(a: Advice, deals) -> None:
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
    from .explain import minus_opponents
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
    echo(f"  {minus_opponents('rollout', r.n_sides, header=True):<27}{_pm(o.diff)}")
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


# ---------------------------------------------------------------------------- games, match, equity
def print_games(gres: Any) -> None:
    """Print a :class:`~catchten_sim.games.GamesResult` (its ``to_text``)."""
    echo(gres.to_text())


def print_match(res: Any, d: dict[str, Any]) -> None:
    """Print a :class:`~catchten_sim.match.MatchResult` (its ``to_text``); ``d``: its JSON
    with any extra keys (``p_win_game``: the line of P(A wins a game from 0-0))."""
    echo(res.to_text())
    if "p_win_game" in d:
        if d.get("p_win_game_method") == "rollouts":
            echo(f"  P({res.a.label} wins a game from 0-0): {100 * d['p_win_game']:.1f}% "
                 f"(se {100 * d['p_win_game_se']:.1f}; game rollouts of each seating)")
        else:
            echo(f"  P({res.a.label} wins a game from 0-0): {100 * d['p_win_game']:.1f}% "
                 "(game-equity table of each seating)")


def print_equity(eq: Any, summary: dict[str, Any], run_dir: Any = None) -> None:
    """Print a game-equity table (:class:`~catchten_sim.games.EquityTable`): the header,
    P(win) from 0-0 by dealer, with two sides the table itself, and the files written
    (``summary``: its JSON with ``start`` and the files' names; ``run_dir``: where a
    partial run goes on)."""
    rules = eq.rules
    T = summary["target"]
    if eq.partial and eq.stopped != "unfinished":
        echo(f"PARTIAL: interrupted after {eq.n_hands:,} of {eq.requested_hands:,} "
                   "deals; the table below is built from those"
                   + (f"; finish with: catchten resume {run_dir}" if run_dir else ""))
    echo(f"{rules.label()}: game equity to {T}, tie={summary['tie']}; {eq.n_hands:,} deals "
               f"({summary['distinct_outcomes']:,} distinct outcomes), seed {eq.seed}; "
               + ("read from the cache" if summary["simulation_s"] == 0 and not run_dir else
                  f"simulation {summary['simulation_s']:.2f} s, DP {summary['dp_s']:.2f} s"))
    for e in summary["start"]:
        echo(f"  from 0-0, seat {e['dealer_seat']} dealing: "
                   + ", ".join(f"side {s} {100 * p:.1f}%" for s, p in enumerate(e["p_win"])))
    if rules.n_sides == 2:
        step = 5 if T > 20 else 1
        marks = list(range(0, T, step))
        for c in range(eq.V.shape[0]):
            who = f"side {c}" if eq.by_side else f"seat {c}"
            echo(f"\nP(side 0 wins), {who} dealing (rows: side 0's score, "
                       "columns: side 1's):")
            echo("      " + "".join(f"{b:>6d}" for b in marks))
            for a in marks:
                echo(f"{a:>6d}" + "".join(f"{100 * eq.V[c, a, b]:6.1f}" for b in marks))
    for key in ("csv", "parquet", "png"):
        if key in summary:
            echo(f"{key}: {summary[key]}")


def print_equity_states(d: dict[str, Any]) -> None:
    """Print P(win) at named states (:func:`catchten_sim.equity.equity_states`), in 80
    columns: a header, then per state its scores and dealer and each side's P(win) with
    its standard error (in percentage points), three sides a line."""
    from .rules import Rules
    r = d["rules"]
    rules = Rules(r["preset"], r["players"], r["variants"])
    how = (f"game rollouts, {d['games']:,} games per state" if d["method"] == "rollouts"
           else f"exact table of {d['hands']:,} deals (se not estimated)")
    echo(f"{rules.label()}: P(win) to {d['target']}, tie={d['tie']}; seed {d['seed']}")
    echo(f"method: {how}; {d['elapsed_s']:.2f} s")
    for st in d["states"]:
        echo(f"scores {' '.join(str(x) for x in st['scores'])}, seat {st['dealer']} "
                   f"deals ({st['method']}):")
        cells = [f"side {s} {100 * p:5.1f}%" + (f" (se {100 * e:.1f})" if e is not None else "")
                 for s, (p, e) in enumerate(zip(st["p_win"], st["se"]))]
        for i in range(0, len(cells), 3):
            echo("  " + "   ".join(f"{c:<22s}" for c in cells[i:i + 3]).rstrip())
    if d.get("unfinished"):
        echo(f"unfinished games (the hand limit): {d['unfinished']}")


# ---------------------------------------------------------------------------- solve, report
def print_solution(sol: Any, record: Any = None, with_line: bool = False) -> None:
    """Print a double-dummy :class:`~catchten_sim.solve.Solution`
    (:func:`format_solution`)."""
    echo(format_solution(sol, record, with_line))


def format_solution(sol: Any, record: Any = None, with_line: bool = False) -> str:
    """The terminal text of a double-dummy :class:`~catchten_sim.solve.Solution`: every
    card's value (in the words of the advice's dd column, :func:`~catchten_sim.explain.
    measure_words`), the best card(s) and, when the line was computed (and the record is
    given), the line trick by trick; ``with_line``: it was asked for (a solve stopped early
    says why none is shown)."""
    from .explain import measure_words
    from .records import load_record, score_record

    def _load(record: Any) -> dict:
        return load_record(os.fspath(record)) if isinstance(record, (str, os.PathLike)) \
            else record
    who = measure_words("diff", "dd", sol.n_sides, whose="the mover's side's")
    trumps = ""
    if record is not None:
        data0 = _load(record)
        t = score_record(dict(data0, play=list(data0.get("play") or [])))["trumps"]
        trumps = f", trumps {t}" + (f" (turn-up {data0['turnup']})"
                                    if data0.get("turnup") else "")
    width = max(len(c) for c in sol.values)
    if sol.exact or sol.ranges is None or sol.value_range is None:
        lines = [f"seat {sol.to_move} to move (side {sol.side}){trumps}; value "
                 f"{sol.value:+d} points: the deal's final score difference, {who}, best "
                 "play by all"]
        for c, v in sol.values.items():
            mark = "  best" if c in sol.best else ""
            lines.append(f"  {c:<{width}}  {v:+4d}{mark}")
        lines.append(f"best: {' '.join(sol.best)}")
    else:
        lo, hi = sol.value_range
        why = {"node budget": f"its node budget, {sol.nodes:,} nodes searched; "
                              "--max-nodes raises it",
               "time limit": "its time limit; --time raises it",
               "interrupted": "Ctrl-C"}.get(sol.stopped_by or "", "a stop")
        lines = [f"seat {sol.to_move} to move (side {sol.side}){trumps}; value between "
                 f"{lo:+d} and {hi:+d} points: the deal's final score difference, {who}, "
                 "best play by all"]
        if all(r == (lo, hi) for r in sol.ranges.values()):
            # no card's range is narrower than the whole span: nothing is proven
            by, more = {"node budget": ("its node budget", "; --max-nodes raises it"),
                        "time limit": ("its time limit", "; --time raises it"),
                        "interrupted": ("Ctrl-C", "")}.get(sol.stopped_by or "", ("a stop", ""))
            lines.append(f"not exact: nothing proven yet (stopped by {by} after "
                         f"{sol.nodes:,} nodes{more})")
        else:
            lines.append(f"not exact: the solve stopped early (by {why}); each card's "
                         "range below is proven: its exact value lies in it")
        for c, (a, b) in sol.ranges.items():
            mark = "  may be best" if c in sol.best else ""
            rng = f"{a:+4d}" if a == b else f"{a:+4d} .. {b:+d}"
            lines.append(f"  {c:<{width}}  {rng}{mark}")
        lines.append(f"may be best: {' '.join(sol.best)}")
        if sol.line is None and with_line:
            lines.append("no line: it is shown when the values are exact")
    if sol.line is not None and record is not None:
        data = dict(_load(record))
        done = list(data.get("play") or [])
        full = score_record(dict(data, play=done + list(sol.line)))
        players = int(data["players"])
        first = len(done) // players
        lines.append("line (each card after the seat that plays it):")
        for i, tr in enumerate(full["tricks"][first:], start=first):
            cards = tr["cards"]
            shown = []
            for j, c in enumerate(cards):
                seat = (tr["leader"] + j) % players
                shown.append(f"seat {seat} " + (f"({c})" if i * players + j < len(done)
                                                 else c))
            label = f"set {tr['set']} " if "set" in tr else ""
            lines.append(f"  {label}trick {i + 1}: {', '.join(shown)}  -> seat {tr['winner']}")
        totals = ", ".join(f"side {s['side']} {s['total']}" for s in full["sides"])
        note = " (cards in brackets were already played)" if len(done) > first * players \
            else ""
        lines.append(f"  final: {totals}{note}")
    return "\n".join(lines)


def print_report_files(rep: Any) -> None:
    """Print the line of a written report: its directory, PDF and JSON, how many PNG and
    CSV files."""
    echo(f"{rep.out_dir}: " + ", ".join(p.name for p in rep.files
                                              if p.suffix in (".pdf", ".json"))
               + f" and {sum(p.suffix == '.png' for p in rep.files)} PNG, "
               f"{sum(p.suffix == '.csv' for p in rep.files)} CSV files")


def print_report_runs(run_dir: Any, out: Any, runs: list[dict[str, Any]]) -> None:
    """Print a report run directory's runs (``catchten summarize``): each part's deals of
    those asked for, its rules and policies."""
    echo(f"report run directory {run_dir} (report files: {out})")
    for r in runs:
        req = f"{r['requested']:,}" if r["requested"] else "?"
        echo(f"  {r['part']:<14s} {r['deals']:>12,} of {req:>12s} deals  "
                   f"{r['rules']}; {r['policies']}")
    echo(f"finish (or rebuild the report files) with: catchten resume {run_dir}")
