"""``advise --evaluator dd`` against an independent answer on random small positions of
every preset, player count and play/scoring switch: every deal of the unseen cards that
the reference engine finds consistent with the play, each solved by brute force
(``tests/bruteforce.exact_advice``; no information sets of the package). Compares the
number of consistent deals and every card's sum of values exactly.
The positions hold one to three cards a hand, so with six-card sets they are in the last
set. With ``dealer_declares`` the declared trump (a suit or NT) is ``tests/bruteforce``'s own
``trump`` key, as a position writes it (a hand record has no field for it).
``tests/test_advise_exact.py`` runs a few dozen; this script runs as many as asked:

    PYTHONPATH=$PWD python scripts/check_advise_exact.py --seconds 600 --seed 1
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

# the brute force is test code (it must stay independent of the package): tests/ holds it
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from exactness import check_advice, random_advice_position  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.time()
    n = big = 0
    bad = []
    while time.time() - t0 < args.seconds:
        res = check_advice(random_advice_position(rng))
        if res is None:
            big += 1
            continue
        n += 1
        if res is not True:
            bad.append(res)
            print(res)
    print(f"{n - len(bad)} of {n} positions agree ({big} too big to enumerate, "
          f"{time.time() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
