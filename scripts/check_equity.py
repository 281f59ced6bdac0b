#!/usr/bin/env python3
"""Check the game-equity table against direct game simulation (issue 5, validation).

For a dozen score states, games are started from those scores with the given dealer and
played to the end; the share side 0 wins (with its 95% Wilson interval) is compared with
the table's exact DP value. Prints one line per state and a verdict.

    python scripts/check_equity.py                        # foster 4p, 1,000,000 deals, 100,000 games a state
    python scripts/check_equity.py --players 2 --hands 300000 --games 50000
    python scripts/check_equity.py -V tie=higher_total -V game_at_once
"""
from __future__ import annotations

import argparse
import math
import sys
import time

from catchten_sim import Rules
from catchten_sim.equity import equity_table
from catchten_sim.games import simulate_games

STATES = [((0, 0), 0), ((0, 0), 1), ((10, 25), 0), ((25, 10), 1), ((30, 30), 0),
          ((30, 30), 1), ((35, 20), 1), ((20, 35), 0), ((38, 38), 0), ((40, 30), 1),
          ((30, 40), 0), ((36, 39), 1)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="foster")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("-V", "--variant", action="append", default=[])
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rules = Rules.from_options(a.rules, a.players, a.variant)
    if rules.n_sides != 2:
        print("this check is written for two sides", file=sys.stderr)
        return 2
    T = rules.target
    t0 = time.perf_counter()
    eq = equity_table(rules, a.policy, n_hands=a.hands, seed=a.seed)
    print(f"{rules.label()}, {a.policy}: table from {a.hands:,} deals "
          f"({eq.n_outcomes:,} distinct outcomes) in {time.perf_counter() - t0:.2f} s "
          f"(DP {eq.dp_s:.3f} s); {a.games:,} games per state")
    print(f"{'scores':>10} {'dealer':>6} {'table':>8} {'games':>8} {'95% interval':>17} "
          f"{'diff':>7} {'z':>6}")
    worst = 0.0
    outside = 0
    n_states = 0
    for k, ((s0, s1), dealer) in enumerate(STATES):
        s0, s1 = min(s0, T - 1), min(s1, T - 1)
        dealer %= rules.players
        g = simulate_games(rules, a.policy, n_games=a.games, seed=a.seed + 1000 + k,
                           first_dealer=dealer, start_scores=(s0, s1))
        p, lo, hi = g.p_win(0)
        tab = eq.p_win((s0, s1), dealer)[0]
        se = math.sqrt(max(p * (1 - p), 1e-6) / a.games)
        z = (p - tab) / se
        inside = lo <= tab <= hi
        outside += not inside
        n_states += 1
        worst = max(worst, abs(z))
        print(f"{s0:>4}-{s1:<5} {dealer:>6} {100 * tab:7.2f}% {100 * p:7.2f}% "
              f"[{100 * lo:6.2f}, {100 * hi:6.2f}] {100 * (p - tab):+6.2f} {z:+6.2f}"
              + ("" if inside else "  outside"))
    print(f"{n_states - outside} of {n_states} table values inside the games' 95% interval "
          f"(about {0.95 * n_states:.1f} expected from sampling alone; the table has its "
          f"own sampling error too); largest |z| {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
