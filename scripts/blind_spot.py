#!/usr/bin/env python3
"""What hidden information costs (issue 11, item 4, first part): on the same deals, the
double-dummy value of the deal (everyone sees every card and plays best) against what
``pimc`` achieves playing ``pimc`` and what ``heuristic`` achieves playing ``heuristic``.

    python scripts/blind_spot.py                               # 2-player sets game
    python scripts/blind_spot.py --players 4 --deals 40 --pimc-deals 20

Values are the eldest hand's side total minus the other side's (points per deal, two
sides), at the opening lead: the double-dummy value from the solver
(:func:`catchten_sim.solve.solve_deals`, the whole deal, every set), the self-play values
from the deals of :func:`catchten_sim.match.match` (deal ``i`` of the seed, the same
cards). Printed per player: the mean of (self-play - double-dummy) with its 95% interval
(how far hidden-information play moves the eldest side's result from perfect-information
play, on average) and the mean absolute gap (how far a deal's result lies from its
double-dummy value). A script, not a test: its runs take minutes.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from catchten_sim import Rules
from catchten_sim._kernels import engine as K
from catchten_sim.aggregate import Z95, mean_se
from catchten_sim.match import _Player
from catchten_sim.policies import Policy
from catchten_sim.solve import solve_deals


def eldest_diff(rules: Rules, first: int, tot: np.ndarray) -> np.ndarray:
    """Eldest's side total minus the other side's, per deal (two sides)."""
    n = rules.players
    out = np.zeros(tot.shape[0])
    for i in range(tot.shape[0]):
        side = rules.side_of(((first + i) % n + 1) % n)
        out[i] = tot[i, side] - tot[i, 1 - side]
    return out


def summary(name: str, gap: np.ndarray, what: str = "self-play minus double-dummy") -> str:
    m, se = mean_se(float(gap.sum()), float((gap * gap).sum()), len(gap))
    ma, sea = mean_se(float(np.abs(gap).sum()), float((gap * gap).sum()), len(gap))
    return (f"{name}: {what} {m:+.2f} [{m - Z95 * se:+.2f}, "
            f"{m + Z95 * se:+.2f}] points per deal, mean |gap| {ma:.2f}, {len(gap)} deals")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--pimc", default="pimc:10")
    ap.add_argument("--pimc-deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    rules = Rules("foster", args.players)
    if rules.n_sides != 2:
        raise SystemExit("two sides only")
    tab = rules.tables()
    t0 = time.perf_counter()
    dd = np.zeros(args.deals)
    for i in range(args.deals):
        hands, dealer, _trump, turnup, _dead, _s = K.deal_one(tab, args.seed, i)
        out = solve_deals(rules, dealer, turnup, hands[None].astype(np.int64), all_cards=False)
        dd[i] = out[0, 52]              # the eldest hand (to move) side's best value
    print(f"double-dummy values of {args.deals} deals: mean {dd.mean():+.2f}, "
          f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    heur = _Player(rules, Policy.HEURISTIC, Policy.HEURISTIC, args.seed, args.threads, None)
    vh = eldest_diff(rules, 0, heur.side_totals(0, args.deals, heur.policies[-1]))
    pim = _Player(rules, Policy.parse(args.pimc), Policy.parse(args.pimc), args.seed,
                  args.threads, None)
    m = min(args.pimc_deals, args.deals)
    t0 = time.perf_counter()
    vp = eldest_diff(rules, 0, pim.side_totals(0, m, pim.policies[0]))
    print(f"{args.pimc} self-play of {m} deals: {time.perf_counter() - t0:.1f} s",
          file=sys.stderr)
    print(f"{rules.label()}, seed {args.seed}; eldest's side minus the other side, points per "
          "deal")
    print(f"double-dummy: mean {dd.mean():+.2f} ({args.deals} deals); first {m}: "
          f"{dd[:m].mean():+.2f}")
    print(summary("heuristic vs heuristic", vh - dd))
    print(summary("heuristic vs heuristic (the pimc deals)", vh[:m] - dd[:m]))
    print(summary(f"{args.pimc} vs {args.pimc}", vp - dd[:m]))
    print(summary(f"{args.pimc} vs {args.pimc} against heuristic vs heuristic", vp - vh[:m],
                  "self-play difference"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
