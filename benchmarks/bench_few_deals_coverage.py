"""Coverage of ``advise``'s per-card 95% intervals on a run of few deals (before the first
look, where ``aggregate.LookPlan.critical`` uses Student's t), beside what z 1.96 would give.

    PYTHONPATH=$PWD python benchmarks/bench_few_deals_coverage.py --deals 12 --runs 2000

Rollouts (heuristic) of the README's opening lead, ``--runs`` runs of ``--deals`` deals each
(seeds 0..runs-1), against the means of one run of ``--truth`` deals (seed 999).
"""
from __future__ import annotations

import argparse
import time
from statistics import NormalDist

from catchten_sim.advise import advise

POSITION = "examples/position-lead.json"


def _means(a) -> dict:
    return {c["card"]: c["diff"] for c in a.to_dict()["candidates"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--truth", type=int, default=100_000)
    args = ap.parse_args()
    t0 = time.time()
    truth = {k: v["mean"] for k, v in _means(advise(
        POSITION, samples=args.truth, stop_early=False, threads=1, seed=999,
        exact_max=0)).items()}
    z = NormalDist().inv_cdf(0.975)
    n = hit = hit_z = 0
    crit = float("nan")
    for seed in range(args.runs):
        a = advise(POSITION, samples=args.deals, stop_early=False, threads=1, seed=seed,
                   exact_max=0)
        crit = a.to_dict()["intervals"]["z"]
        for card, e in _means(a).items():
            lo, hi = e["ci95"]
            n += 1
            hit += lo <= truth[card] <= hi
            hit_z += abs(e["mean"] - truth[card]) <= z * e["se"]
    print(f"{args.deals} deals a run, critical value {crit:.3f}: {n} card intervals over "
          f"{args.runs} runs, coverage {hit / n:.3f} (z 1.96 would give {hit_z / n:.3f}); "
          f"{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
