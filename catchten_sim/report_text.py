"""Readable terminal output (rich tables) for the CLI. Formatting only, no statistics."""
from __future__ import annotations

from typing import Any

import os
import textwrap

from rich import box
from rich.console import Console, ConsoleDimensions
from rich.table import Table

#: the width of text sent to a pipe or file without COLUMNS: wide enough that no line and
#: no table row is ever wrapped by the width (a reader or a script gets whole rows; the
#: rules table lays out its long deck and switches values in lines of its own)
UNWRAPPED = 4096


class _Out(Console):
    """The CLI's stdout console, its width decided at every print: ``COLUMNS`` when set
    (a terminal or a pipe), else a terminal's own width, else :data:`UNWRAPPED`."""

    @property
    def size(self) -> ConsoleDimensions:
        cols = os.environ.get("COLUMNS", "").strip()
        if cols.isdigit() and int(cols) > 0:
            return ConsoleDimensions(int(cols), super().size.height)
        if self.file.isatty():
            return super().size
        return ConsoleDimensions(UNWRAPPED, 25)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]


_console = _Out(highlight=False, soft_wrap=False)

#: the width the rules table wraps its deck and switches values to
_RULES_VALUE_WIDTH = 78


def _pct(x: float | None) -> str:
    return "n/a" if x is None or x != x else f"{100 * x:.2f}%"


def print_rules(d: dict[str, Any]) -> None:
    """Print :meth:`Rules.describe` output."""
    t = Table(title=f"Rules: {d['preset']}, {d['players']} players", show_header=False,
              title_justify="left")
    t.add_column("rule", style="bold")
    t.add_column("value")
    # the two long values: in a pipe without COLUMNS (UNWRAPPED, nothing wraps them)
    # laid out in lines of their own, so that the table is about 100 columns, not one row
    # of 400; at a known width rich wraps them at word boundaries
    def fill(text: str) -> str:
        return textwrap.fill(text, _RULES_VALUE_WIDTH) if _console.width >= UNWRAPPED else text

    t.add_row("deck", fill(f"{d['deck']['size']} cards: {d['deck']['cards']}"))
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
    t.add_row("switches", fill(switches + "  (those that apply here; all: --switches)"))
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
    from .compile_notice import compiling_note
    compiling = compiling_note(d.get("compile_s", 0.0))
    con.print(f"[bold]{res.rules.label()}[/bold]  policies: {d['policies']['label']}  "
              f"deals: {d['deals']:,}  seed: {d['seed']}  "
              + (f"({d['elapsed_s']:.1f} s{compiling} on {res.executor}, deal rotates)"
                 if d["threads"] and getattr(res, "executor", "").startswith("Dask") else
                 f"({d['elapsed_s']:.1f} s{compiling}, {d['threads']} threads, deal rotates)"
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
