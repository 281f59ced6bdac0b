#!/usr/bin/env python3
"""Duplicate matches (issue 11 targets).

Run from the repository root::

    python benchmarks/bench_match.py            # both targets, 4-player foster
    python benchmarks/bench_match.py --players 3 --repeat 5

Targets:

* ``catchten match heuristic random --deals 100000`` under 30 s whole process on 2 cores
  (timed as given, which stops once separated, and with ``--no-early-stop``, all 100,000
  deals);
* duplicate + control variate needs at least 5x fewer deals than plain play for the same
  interval on heuristic vs random (``deals_saved_factor`` of the full run; the factor per
  play is printed beside it).

Each timing is the median of ``--repeat`` runs in a fresh process after one warm-up run
(which compiles the kernels or loads them from the cache). Exit status 0 whether or not
targets pass.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str]) -> tuple[float, dict]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "catchten_sim.cli", "match", *args, "--json"],
                         env=env, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - t0, json.loads(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    base = ["heuristic", "random", "--deals", "100000", "--players", str(args.players),
            "--threads", str(args.threads)]
    run(base + ["--deals", "1000"])                       # warm-up / compile
    for extra in ([], ["--no-early-stop"]):
        times = []
        for _ in range(args.repeat):
            t, d = run(base + extra)
            times.append(t)
        f = d["deals_saved_factor"]
        print(f"catchten match {' '.join(base + extra)}: median {statistics.median(times):.2f} s "
              f"whole process (target < 30 s); {d['deals']:,} deals, stop {d['stop']}, "
              f"mean {d['mean_difference']:+.3f} {d['ci95']}, se {d['se']}, deals saved "
              f"{f:.1f}x (target >= 5x), per play {f / d['plays_per_deal']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
