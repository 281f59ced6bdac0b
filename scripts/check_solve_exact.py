"""The solver against brute force on random small endings of every preset, player count and
play/scoring switch (issue 9, exactness), and its bounds under a tiny node budget (issue 26:
each card's proven range holds the exact value). ``tests/test_solve.py`` runs a few hundred;
this script runs as many as asked:

    PYTHONPATH=$PWD python scripts/check_solve_exact.py --per-config 100 --seed 1
    PYTHONPATH=$PWD python scripts/check_solve_exact.py --only french52 --per-config 300
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from bruteforce import brute_values, random_ending  # noqa: E402

from catchten_sim.solve import Solver, solve, solve_values  # noqa: E402
from catchten_sim.cards import format_card  # noqa: E402

#: (preset, players, variants, cards left per hand): every preset, player count and switch
#: that changes play or scoring; sets crossed where the brute force stays quick
CONFIGS = [
    ("foster", 2, {}, 4), ("foster", 2, {}, 7), ("foster", 2, {"set_scoring": "per_deal"}, 7),
    ("foster", 2, {"small_deal": "whole"}, 5),
    ("foster", 2, {"no_trump_first_lead": True}, 7),
    ("foster", 3, {}, 4), ("foster", 3, {"set_scoring": "per_deal"}, 4),
    ("foster", 3, {"small_deal": "whole"}, 3), ("foster", 3, {}, 7),
    ("foster", 4, {}, 4), ("foster", 4, {"ten_of_diamonds_bonus": True}, 4),
    ("foster", 4, {"must_trump": True}, 4), ("foster", 4, {"exposed_trump": True}, 4),
    ("foster", 4, {"card_points": "off"}, 4), ("foster", 4, {"everyone_alone": True}, 3),
    ("foster", 5, {}, 3), ("foster", 5, {"keep_six_of_spades": True}, 3),
    ("foster", 5, {"removed_six": "C"}, 3),
    ("foster", 6, {}, 3), ("foster", 6, {"six_players": "triples"}, 3),
    ("foster", 6, {"everyone_alone": True}, 2),
    ("foster", 7, {}, 2), ("foster", 7, {"keep_six_of_spades": True}, 2),
    ("foster", 8, {}, 2), ("foster", 8, {"ten_of_diamonds_bonus": True, "must_trump": True}, 2),
    ("jaques", 4, {}, 4), ("jaques", 6, {}, 3), ("jaques", 6, {"six_as_three_pairs": True}, 3),
    ("jaques", 4, {"deck52": True}, 4), ("jaques", 6, {"card_points": "on"}, 3),
    ("french52", 4, {}, 4), ("french52", 4, {}, 5),
    ("french52", 4, {"card_points": "on", "exposed_trump": True}, 3),
]


def check(per_config: int, seed: int, verbose: bool = False, only: str | None = None,
          budgets: bool = True) -> tuple[int, list[str]]:
    """Solve ``per_config`` random endings of every configuration (``only``: those whose
    preset is it); with ``budgets`` each ending is solved again under a random tiny node
    budget, whose ranges must hold the exact values. Returns (count, failures)."""
    rng = random.Random(seed)
    n = 0
    bad = []
    for preset, players, variants, left in CONFIGS:
        if only and preset != only:
            continue
        for _ in range(per_config):
            rec = random_ending(rng, preset, players, variants, rng.randint(1, left))
            to_move, want = brute_values(rec)
            got_move, best, vals = solve_values(rec)
            got = {format_card(c): v for c, v in vals.items()}
            n += 1
            if got_move != to_move or got != want or best != max(want.values()):
                bad.append(f"{preset} {players} {variants}: {rec} want {to_move} {want} got "
                           f"{got_move} {got}")
                if verbose:
                    print(bad[-1])
            if budgets:
                budget = rng.choice((1, 2, 5, 20, 100, 1000))
                sol = solve(rec, solver=Solver(node_limit=budget))
                top = max(want.values())
                if set(sol.ranges) != set(want) or any(
                        not sol.ranges[c][0] <= v <= sol.ranges[c][1]
                        for c, v in want.items()) or not (
                        sol.value_range[0] <= top <= sol.value_range[1]):
                    bad.append(f"{preset} {players} {variants} budget {budget}: {rec} want "
                               f"{want} got ranges {sol.ranges}")
                    if verbose:
                        print(bad[-1])
    return n, bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-config", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=None, help="one preset (e.g. french52)")
    args = ap.parse_args()
    t0 = time.time()
    n, bad = check(args.per_config, args.seed, verbose=True, only=args.only)
    print(f"{n - len(bad)} of {n} endings agree with brute force "
          f"({len(CONFIGS)} configurations, {time.time() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
