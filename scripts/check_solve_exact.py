"""The solver against brute force on random small endings of every preset, player count and
play/scoring switch (issue 9, exactness), and its proven ranges under a tiny node budget
(issue 26: they hold the exact values). ``tests/test_solve.py`` runs a few hundred; this
script runs as many as asked:

    PYTHONPATH=$PWD python scripts/check_solve_exact.py --per-config 100 --seed 1
    PYTHONPATH=$PWD python scripts/check_solve_exact.py --only french52 --per-config 300
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# the brute force is test code (it must stay independent of the package): tests/ holds it
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from exactness import SOLVE_CONFIGS, check_solver  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-config", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=None, help="one preset (e.g. french52)")
    args = ap.parse_args()
    t0 = time.time()
    n, bad = check_solver(args.per_config, args.seed, verbose=True, only=args.only)
    print(f"{n - len(bad)} of {n} endings agree with brute force "
          f"({len(SOLVE_CONFIGS)} configurations, {time.time() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
