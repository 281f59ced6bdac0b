#!/usr/bin/env python3
"""Speed of ``advise``: a 4-player opening lead, 9 candidates x 10,000 samples each,
heuristic rollouts (the issue-4 target: under 2 s after warm-up), and the sampler's rate.

    python benchmarks/bench_advise.py [--repeat 3] [--threads N]
"""
from __future__ import annotations

import argparse
import time

from catchten_sim.advise import advise
from catchten_sim.determinize import Sampler
from catchten_sim.position import Position
from catchten_sim.checks import max_threads

OPENING = {"players": 4, "dealer": 3, "seat": 0, "turnup": "7S",
           "hand": "JS AS 9S KH QH 7D 8C 9C TC".split(), "play": []}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--samples", type=int, default=10_000)
    a = ap.parse_args()
    pos = Position.from_dict(OPENING)
    t = time.perf_counter()
    advise(pos, samples=300, seed=9, stop_early=False, time_limit=None, threads=a.threads)
    print(f"warm-up (compile or cache load): {time.perf_counter() - t:.2f} s")
    best = float("inf")
    for k in range(a.repeat):
        t = time.perf_counter()
        adv = advise(pos, samples=a.samples, seed=1 + k, stop_early=False, time_limit=None,
                     threads=a.threads)
        dt = time.perf_counter() - t
        best = min(best, dt)
        print(f"run {k}: {len(adv.candidates)} candidates x {adv.n_samples:,} samples = "
              f"{len(adv.candidates) * adv.n_samples:,} rollouts in {dt:.3f} s "
              f"({len(adv.candidates) * adv.n_samples / dt:,.0f} rollouts/s)")
    s = Sampler(pos.info())
    s.sample(1000, seed=1)
    t = time.perf_counter()
    s.full_hands(s.sample(500_000, seed=2))
    rate = 500_000 / (time.perf_counter() - t)
    threads = a.threads or max_threads()
    print(f"\nadvise, 9 x {a.samples:,}, heuristic, {threads} threads: best {best:.3f} s "
          f"(target < 2 s: {'PASS' if best < 2 else 'FAIL'})")
    print(f"sampler, 4-player opening, 1 thread: {rate:,.0f} samples/s "
          f"(target >= 100,000: {'PASS' if rate >= 100_000 else 'FAIL'})")


if __name__ == "__main__":
    main()
