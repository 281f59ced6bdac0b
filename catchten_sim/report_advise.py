"""Readable text for ``catchten advise`` and ``catchten odds`` (no logic: formatting)."""
from __future__ import annotations

import math

import click

from .advise import STOP_REASONS, Advice, Odds
from .cards import cards_of_mask, format_card


def _pm(e, pct: bool = False, digits: int = 2) -> str:
    if pct:
        return f"{100 * e.mean:5.1f}% ({100 * e.lo:4.1f}-{100 * e.hi:4.1f})"
    if math.isnan(e.lo):
        return f"{e.mean:6.{digits}f}"
    return f"{e.mean:6.{digits}f} ({e.lo:.{digits}f} to {e.hi:.{digits}f})"


def print_advice(a: Advice) -> None:
    pos = a.position
    info = pos.info()
    r = pos.rules
    echo = click.echo
    echo(f"{r.label()}  seat {info.seat} (side {r.side_of(info.seat)}) to play, "
         f"trick {info.trick_index + 1}" + (f", set {info.set_index + 1}" if r.n_sets > 1
                                            else "")
         + f"; trumps {'SHDC'[info.trump] if info.trump < 4 else 'none'}")
    echo(f"hand: {' '.join(format_card(c) for c in cards_of_mask(info.my_hand))}"
         + (f"   trick so far: {' '.join(format_card(c) for _, c in info.trick)}"
            if info.trick else "   (on lead)"))
    deals = (f"exact ({a.n_samples:,} deals: every consistent deal)" if a.exact else
             f"{a.n_samples:,} sampled deals (of {a.n_consistent:.3g} consistent)")
    echo(f"{deals}, evaluator {a.evaluator}, policies {'/'.join(sorted({p.label for p in a.policies}))}"
         f", objective {a.objective}, seed {a.seed}, {a.elapsed_s:.2f} s")
    echo(f"stopped: {STOP_REASONS[a.stop]}" + (" (PARTIAL)" if a.partial else ""))
    echo(a.intervals)
    echo("")
    if "points" not in a.candidates[0].estimates:
        _dd_table(a)
    else:
        _rollout_table(a)
    echo("")
    _verdicts(a)


def _dd_table(a: Advice) -> None:
    """The table of an evaluator that gives the objective only (dd): value, best share."""
    echo = click.echo
    k = a.objective
    echo(f"{'card':<5} {'dd value: diff (95%)':<28} {'best in':>8}")
    for x in a.candidates:
        e = x.estimates[k]
        share = "" if x.best_share is None else f"{100 * x.best_share:7.1f}%"
        line = f"{x.name:<5} {_pm(e):<28} {share:>8}"
        if x.equivalent_to is not None:
            line += f"  (= {format_card(x.equivalent_to)})"
        echo(line)
    echo("(best in: the share of the deals in which the card is a best card)")


def _rollout_table(a: Advice) -> None:
    echo = click.echo
    hdr = (f"{'card':<5} {'our points (95%)':<24} {'diff vs best opp (95%)':<26} "
           f"{'P(Ten ours)':<20} {'we catch':<20} {'they catch':<20} {'card pts':<8}")
    if a.p_win_available:
        hdr += "  P(win)"
    echo(hdr)
    for x in a.candidates:
        e = x.estimates
        line = (f"{x.name:<5} {_pm(e['points']):<24} {_pm(e['diff']):<26} "
                f"{_pm(e['ten_ours'], True):<20} {_pm(e['caught_by_us'], True):<20} "
                f"{_pm(e['caught_by_them'], True):<20} {e['card_points'].mean:8.2f}")
        if a.p_win_available:
            line += f"  {_pm(e['p_win'], True)}"
        if x.equivalent_to is not None:
            line += f"  (= {format_card(x.equivalent_to)})"
        echo(line)


def _verdicts(a: Advice) -> None:
    echo = click.echo
    if a.margin is None:
        echo(f"best: {format_card(a.best)}" + (" (the only legal card)" if a.stop == "single"
                                               else " (every card scored the same)"))
    else:
        d = a.margin.diff
        v = a.margin.verdict
        span = f"paired 95%: {d.lo:+.3f} to {d.hi:+.3f}"
        if v == "no practical difference":
            echo(f"best: no practical difference between {format_card(a.best)} and "
                 f"{format_card(a.second)}: {d.mean:+.3f} {a.objective} ({span}; inside "
                 f"the practical margin ±{a.practical_margin:g})")
        else:
            verdict = "separated at 95%" if v == "separated" else "not separated at 95%"
            echo(f"best: {format_card(a.best)}, by {d.mean:+.3f} {a.objective} over "
                 f"{format_card(a.second)} ({span}; {verdict})")
    if a.trump_lead is not None:
        d = a.trump_lead.diff
        v = a.trump_lead.verdict
        if v == "no practical difference":
            ans = "no practical difference"
        elif d.lo > 0:
            ans = "YES"
        elif d.hi < 0:
            ans = "NO"
        else:
            ans = "too close to call"
        echo(f"lead a trump? {ans}: best trump lead {format_card(a.trump_lead.a)} vs best "
             f"other lead {format_card(a.trump_lead.b)}: {d.mean:+.3f} {a.objective} "
             f"(paired 95%: {d.lo:+.3f} to {d.hi:+.3f})")
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
         f"turn-up {format_card(info.turnup)}; hand "
         f"{' '.join(format_card(c) for c in cards_of_mask(info.my_hand))}")
    if o.partial:
        echo(f"PARTIAL: interrupted after {o.n_deals:,} of {o.requested:,} deals")
    echo(f"{o.n_deals:,} deals consistent with the hand, played out by "
         f"{'/'.join(sorted({p.label for p in o.policies}))}; seed {o.seed}; "
         f"{o.elapsed_s:.2f} s")
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
