"""Long check (issue 28): game rollouts against the exact game-equity table.

For ``--states`` random states (scores below the target, a random dealer) of a 2-side
(``--players 4``) or 3-side (``--players 3``) table, P(each side wins) by game rollouts
(``--games`` games per state, each state its own seed: independent states) is compared
with the exact table built from ``--hands`` deals (its own sampling error is left out:
take it large). Passes when every |z| <= 3 and the 95% intervals (p ± 1.96 se) cover the
table's value for at least 94.5% of the figures.

    python3 scripts/check_equity_rollouts.py --players 4 --states 200 --seed 1
    python3 scripts/check_equity_rollouts.py --players 3 --states 200 --seed 2
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from catchten_sim import Rules
from catchten_sim.equity import cached_equity_table, default_equity_hands
from catchten_sim.gamerollouts import game_rollouts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="foster")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--states", type=int, default=200)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--hands", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args()
    rules = Rules(a.preset, a.players)
    hands = a.hands or default_equity_hands(rules)
    t0 = time.perf_counter()
    eq = cached_equity_table(rules, "heuristic", n_hands=hands, seed=a.seed,
                             threads=a.threads)
    print(f"{rules.label()}: exact table of {eq.n_hands:,} deals "
          f"({time.perf_counter() - t0:.1f} s); {a.states} states, {a.games:,} games each")
    rng = np.random.default_rng(a.seed)
    ns = rules.n_sides
    zs = []
    z0: list[float] = []
    worst = (0.0, None)
    t1 = time.perf_counter()
    for i in range(a.states):
        sc = tuple(int(x) for x in rng.integers(0, rules.target, ns))
        d = int(rng.integers(0, rules.players))
        ro = game_rollouts(rules, "heuristic", [(sc, d)], n_games=a.games,
                           seed=a.seed * 1_000_003 + i, threads=a.threads)
        exact = eq.p_win(sc, d)
        for s in range(ns):
            p, se = float(ro.p_win[0, s]), float(ro.se[0, s])
            if se == 0.0:         # every game won by one side: the table must say ~0 or 1
                z = 0.0 if abs(p - exact[s]) < 3.0 / a.games else np.inf
            else:
                z = (p - exact[s]) / se
            zs.append(z)
            p0 = min(max(exact[s], 1e-12), 1 - 1e-12)      # the score test: se at the table
            z0.append((p - exact[s]) / np.sqrt(p0 * (1 - p0) / a.games))
            if abs(z) > abs(worst[0]):
                worst = (z, (sc, d, s, p, se, exact[s]))
    z = np.abs(np.array(zs))
    cover = float((z <= 1.96).mean())
    print(f"rollouts {time.perf_counter() - t1:.1f} s; {len(z)} figures: max |z| "
          f"{z.max():.2f}, 95% intervals cover {100 * cover:.1f}%, |z| > 3: "
          f"{int((z > 3).sum())}")
    zt = np.abs(np.array(z0))
    print(f"(for information: with the se at the table's value, the score test, max |z| "
          f"{zt.max():.2f}, {100 * float((zt <= 1.96).mean()):.1f}% within 1.96)")
    if worst[1] is not None:
        sc, d, s, p, se, ex = worst[1]
        print(f"worst: scores {sc}, dealer {d}, side {s}: rollouts {p:.4f} (se {se:.4f}), "
              f"table {ex:.4f}, z {worst[0]:+.2f}")
    ok = z.max() <= 3 and cover >= 0.945
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
