#!/usr/bin/env python3
"""The game-tree properties that predict PIMC's error, measured on random endings of Catch
the Ten (issue 11, item 4), and a search for a strategy-fusion mistake of PIMC.

    python scripts/pimc_properties.py --players 4 --endings 300        # 4 players, foster
    python scripts/pimc_properties.py --players 2 --endings 300        # the 2-player sets game
    python scripts/pimc_properties.py --players 4 --fusion 400         # look for a mistake

The library code lives in the package: :mod:`catchten_sim.endings` (the endings and
:func:`~catchten_sim.endings.measure`, the three game-tree properties of Long, Sturtevant,
Buro and Furtak, AAAI 2010, defined there) and :mod:`catchten_sim.fusion` (the exact value
of a card for a player who commits to one card per information set). This script prints
them.

**Strategy fusion** (``--fusion N``): four players, three tricks left, each seat in turn
choosing; a position where PIMC's card is not the best for a player who cannot tell the
deals apart (``fusion_values``, "best defence" model) is a strategy-fusion mistake; the
script prints the first ones it finds, with the cards. A script, not a test: its runs take
about a minute.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from itertools import product

import numpy as np

from catchten_sim import Rules
from catchten_sim.cards import format_card
from catchten_sim.endings import ending, measure
from catchten_sim.fusion import Node, fusion_values, legal, node_of, worlds_of
from catchten_sim.play import Deal
from catchten_sim.state import rule_tables


def search_fusion(rules: Rules, seed: int, deals: int, limit: int, show: int,
                  policy: str = "heuristic", max_slots: int = 14) -> int:
    """Look for positions (the first trick of the last three, each seat in turn to
    choose) where PIMC's card is not the best card for a player who cannot tell the
    deals apart."""
    found = checked = 0
    over: list[float] = []
    loss: list[float] = []
    for i, into in product(range(deals), range(rules.players)):
        if into == 0 and i and i % 50 == 0 and checked:
            print(f"  ... deals 0..{i - 1}: {checked} positions solved, {found} mistakes, "
                  f"mean loss {np.mean(loss):.4f}", file=sys.stderr, flush=True)
        d, prefix = ending(rules, seed, i, 3, into, policy)
        base = node_of(d, prefix)
        seat = base.to_move
        worlds = worlds_of(d, prefix, seat, limit)
        if worlds is None or len(legal(base)) < 2:
            continue
        t = rule_tables(rules, d.trump)
        vals = fusion_values(rules, t, worlds, seat, max_slots)
        if vals is None:
            continue
        checked += 1
        cards = sorted(vals)
        p_best = max(cards, key=lambda c: (vals[c][0], -c))
        t_best = max(cards, key=lambda c: (vals[c][1], -c))
        over.append(vals[p_best][0] - vals[p_best][1])
        loss.append(vals[t_best][1] - vals[p_best][1])
        if vals[t_best][1] > vals[p_best][1] + 1e-9 and vals[p_best][0] > vals[t_best][0]:
            found += 1
            if found <= show:
                print(f"deal {i} of seed {seed} ({policy} play; dealt by "
                      f"catchten_sim.play.deal), {into} cards into the trick:")
                print(describe(d, prefix, seat, worlds, vals, p_best, t_best))
    print(f"fusion search: {checked} positions solved exactly, {found} strategy-fusion "
          f"mistakes of PIMC (deals 0..{deals - 1}, seed {seed})")
    if checked:
        print(f"  PIMC's card: its mean double-dummy value exceeds its committed value by "
              f"{np.mean(over):.3f} points on average (max {np.max(over):.2f}); the "
              f"committed value lost by playing it instead of the best: mean "
              f"{np.mean(loss):.4f}, max {np.max(loss):.2f} points")
    return found


def describe(d: Deal, prefix: Sequence[int], seat: int, worlds: list[Node],
             vals: dict, p_best: int, t_best: int) -> str:
    fc = format_card
    r = d.rules
    base = node_of(d, prefix)
    lines = [f"deal {d}", f"  after {len(prefix)} cards (play {' '.join(fc(c) for c in prefix)})",
             f"  seat {seat} to play, trumps {'SHDC'[d.trump]}"
             + (", trick so far: " + ", ".join(
                 f"seat {(base.leader + j) % r.players} {fc(c)}"
                 for j, c in enumerate(base.trick)) if base.trick else ", on lead")
             + "; holding "
             f"{' '.join(fc(c) for c in sorted(base.hands[seat]))}; the others hold "
             + "; ".join(f"seat {s}: {' '.join(fc(c) for c in sorted(base.hands[s]))}"
                         for s in range(r.players) if s != seat)
             + f" ({len(worlds)} deals consistent with what seat {seat} knows)"]
    for c in sorted(vals):
        p, tv, k = vals[c]
        mark = ("  <- PIMC" if c == p_best else "") + ("  <- best" if c == t_best else "")
        lines.append(f"  {fc(c):>4}: PIMC mean {p:+7.3f}, committed {tv:+7.3f} "
                     f"({k} later choices where the deals disagree){mark}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=(2, 4))
    ap.add_argument("--endings", type=int, default=300)
    ap.add_argument("--tricks", type=int, default=3, help="tricks left at the ending")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fusion", type=int, default=0,
                    help="deals to search for a strategy-fusion mistake (4 players)")
    ap.add_argument("--worlds", type=int, default=400,
                    help="most consistent deals of a fusion position")
    ap.add_argument("--show", type=int, default=2)
    ap.add_argument("--policy", default="heuristic", choices=("heuristic", "random"),
                    help="who plays the deal up to the ending")
    ap.add_argument("--max-slots", type=int, default=14,
                    help="most linked information sets brute-forced together (2**N)")
    args = ap.parse_args(argv)
    rules = Rules("foster", args.players)
    t0 = time.perf_counter()
    if args.fusion:
        if args.players != 4:
            raise SystemExit("--fusion: four players only")
        search_fusion(rules, args.seed, args.fusion, args.worlds, args.show, args.policy,
                      args.max_slots)
        print(f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
        return 0
    m = measure(rules, args.seed, args.endings, args.tricks)
    print(f"{rules.label()}: {m['endings']} endings ({args.tricks} tricks left), "
          f"{m['preterminal_nodes']} pre-terminal nodes")
    print(f"  leaf correlation: same points {m['lc_points']:.3f}, same sign "
          f"{m['lc_sign']:.3f}; mean spread of the children {m['mean_spread']:.2f} points")
    print(f"  bias (leaves won by the side on move at the ending's start): {m['bias']:.3f}")
    print(f"  disambiguation factor: {m['df']:.3f} of the log count of worlds per trick "
          f"({m['df_n']} endings); followers showing a void: {m['void_share']:.3f}")
    print(f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
