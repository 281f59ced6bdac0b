"""french52 deals from the opening lead solved one by one (issue 26): each deal's nodes,
thread CPU time and bounds, for one or more table sizes side by side.

    PYTHONPATH=$PWD taskset -c 1 python benchmarks/bench_solve_deals.py --bits 17,21 \\
        --node-limit 20000000

The deals are ``bench_solve.py``'s (the same seed gives the same deals); best value, one
thread. For each table size: the nodes and CPU seconds of all deals, the median nodes, the
deals left with bounds at the budget, and each deal over 2 M nodes as
``#deal:nodes/seconds/low..high``. Node counts do not depend on the machine's load; times do.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_solve import cpu_model, random_deals  # noqa: E402
from catchten_sim._kernels import solve as K  # noqa: E402
from catchten_sim.rules import Rules  # noqa: E402
from catchten_sim.solve import Solver, solver_tables  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bits", default="21", help="table sizes, log2 entries, comma-separated")
    ap.add_argument("--node-limit", type=int, default=20_000_000)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = Rules("french52", 4)
    dealers, turnups, masks = random_deals(rules, args.deals, args.seed)
    out = np.empty((1, 2, 53), np.int64)
    none = np.zeros(1, np.int64)
    print(f"{cpu_model()}; one thread; node budget {args.node_limit:,}; thread CPU time")
    for bits in (int(b) for b in args.bits.split(",")):
        solver = Solver(bits)
        solver.state.st[K.S_LIMIT] = args.node_limit
        rows = []
        for d in range(args.deals):
            tables = solver_tables(rules, int(turnups[d]) // 13, int(turnups[d]),
                                   int(dealers[d]))
            if d == 0:     # compile / load the kernels outside the timing
                K.ready(solver.state, tables)
                K.solve_batch(tables, solver.state, solver.table, masks[:0], none, 0, -1, 0,
                              out)
            c0 = time.thread_time()
            nodes = K.solve_batch(tables, solver.state, solver.table, masks[d:d + 1], none,
                                  0, -1, 0, out)
            rows.append((d, nodes, time.thread_time() - c0, out[0, 0, 52], out[0, 1, 52]))
        bounded = sum(lo != hi for *_, lo, hi in rows)
        print(f"2**{bits}: {sum(r[1] for r in rows) / 1e6:.2f} M nodes, "
              f"{sum(r[2] for r in rows):.2f} s, median "
              f"{np.median([r[1] for r in rows]):,.0f} nodes, {bounded} bounded")
        print("   " + " ".join(f"#{d}:{n / 1e6:.2f}M/{c:.2f}s/{lo}..{hi}"
                              for d, n, c, lo, hi in rows if n > 2e6), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
