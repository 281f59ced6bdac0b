#!/usr/bin/env python3
"""Time per decision: ``ipimc:N`` against ``pimc:N`` (issue 25 target: at most 2x).

Deals ``0 … deals-1`` of seed 1 played with every seat ``pimc:N``, then every seat
``ipimc:N`` (the same deals), alternately ``--repeat`` times; the median over the repeats
of the seconds per decision (every card of a seat counts, a forced one too: the same
cards in both). One thread. The machine may be shared: say so beside the
numbers.

    python benchmarks/bench_ipimc.py --players 4 --n 10 --deals 6 --repeat 3
"""
from __future__ import annotations

import argparse
import platform
import statistics
import time

from catchten_sim import Rules
from catchten_sim.pimc import DealDriver, PimcPolicy


def per_decision(rules: Rules, pol: PimcPolicy, deals: int) -> float:
    drv = DealDriver(rules, [pol] * rules.players, seed=1)
    try:
        drv.play(deals)                 # warm: compiles, the solvers' tables
        drv.decisions = 0
        t = time.perf_counter()
        for i in range(deals):
            drv.play(i)
        return (time.perf_counter() - t) / max(1, drv.decisions)
    finally:
        drv.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rules = Rules("foster", a.players)
    times: dict[str, list[float]] = {"pimc": [], "ipimc": []}
    for _ in range(a.repeat):
        for infer in (False, True):
            times["ipimc" if infer else "pimc"].append(
                per_decision(rules, PimcPolicy(a.n, infer), a.deals))
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(x.split(":", 1)[1].strip() for x in f if x.startswith("model name"))
    except (OSError, StopIteration):
        pass
    p, q = statistics.median(times["pimc"]), statistics.median(times["ipimc"])
    print(f"{a.players} players, N={a.n}, {a.deals} deals, median of {a.repeat} ({cpu}):")
    for name, med in (("pimc", p), ("ipimc", q)):
        runs = [round(1000 * x, 2) for x in times[name]]
        print(f"  {name}:{a.n}  {1000 * med:.2f} ms/decision  runs {runs}")
    print(f"  ratio ipimc/pimc {q / p:.2f}")


if __name__ == "__main__":
    main()
