"""Double-dummy solver speed (issue 9): random whole deals from the opening lead, one thread.

    PYTHONPATH=$PWD python benchmarks/bench_solve.py                 # 1,000 4p deals + the rest
    PYTHONPATH=$PWD python benchmarks/bench_solve.py --deals 200     # quicker

For each configuration: per-solve time (median, 90th and 99th percentile, maximum, in ms,
the kernel call alone, compiled beforehand), nodes per second and the transposition-table
hit rate (hits / probes at trick boundaries). "best" is one solve (the best value); "cards"
is the value of every opening card. Deals are uniform random deals (numpy, seeded), the
dealer rotating; the table has a fixed size (``--tt-bits``).

Targets (issue 9): 4p foster best median <= 3 ms, p99 <= 30 ms, max <= 300 ms; every
opening card <= 2.5x one solve; 2 players in three sets median <= 10 ms; french52 median
<= 100 ms.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from catchten_sim._kernels import solve as K  # noqa: E402
from catchten_sim.rules import Rules  # noqa: E402
from catchten_sim.solve import Solver, solver_tables  # noqa: E402


def random_deals(rules: Rules, n_deals: int, seed: int):
    """``(dealers, turnups, masks)``: uniform deals, dealt one card at a time clockwise
    from the eldest, set after set (RULES.md §1, §2); masks int64 (n_deals, n_sets, n)."""
    rng = np.random.default_rng(seed)
    n = rules.players
    deck = np.array(rules.deck)
    size = rules.set_size
    masks = np.zeros((n_deals, rules.n_sets, n), np.int64)
    dealers = np.zeros(n_deals, np.int64)
    turnups = np.zeros(n_deals, np.int64)
    for d in range(n_deals):
        dealer = d % n
        cards = rng.permutation(deck)
        pos = 0
        last = -1
        for s in range(rules.n_sets):
            for _ in range(size):
                for k in range(n):
                    seat = (dealer + 1 + k) % n
                    masks[d, s, seat] |= np.int64(1) << np.int64(cards[pos])
                    last = cards[pos]
                    pos += 1
        dealers[d] = dealer
        turnups[d] = last
    return dealers, turnups, masks


def bench(label: str, rules: Rules, n_deals: int, all_cards: bool, seed: int,
          tt_bits: int, node_limit: int) -> dict:
    dealers, turnups, masks = random_deals(rules, n_deals, seed)
    solver = Solver(tt_bits)
    solver.state.st[K.S_LIMIT] = node_limit   # the kernel is called directly below
    play = np.zeros(1, np.int64)
    out = np.empty((1, 53), np.int64)
    # compile / warm up on the first deal (not timed)
    tables = solver_tables(rules, int(turnups[0]) // 13, int(turnups[0]), int(dealers[0]))
    K.solve_batch(tables, solver.state, solver.table, masks[:1], play, 0, -1, int(all_cards),
                  out)
    times = np.zeros(n_deals)
    st = solver.state.st
    n0, p0, h0 = st[K.S_NODES], st[K.S_PROBES], st[K.S_HITS]
    values = np.zeros(n_deals, np.int64)
    deal_nodes = np.zeros(n_deals)
    unfinished = 0
    for d in range(n_deals):
        tables = solver_tables(rules, int(turnups[d]) // 13, int(turnups[d]), int(dealers[d]))
        t0 = time.perf_counter()
        deal_nodes[d] = K.solve_batch(tables, solver.state, solver.table, masks[d:d + 1],
                                      play, 0, -1, int(all_cards), out)
        times[d] = time.perf_counter() - t0
        values[d] = out[0, 52]
        unfinished += int(st[K.S_ABORT])
    nodes = st[K.S_NODES] - n0
    probes = st[K.S_PROBES] - p0
    hits = st[K.S_HITS] - h0
    ms = times * 1000
    row = {"config": label, "mode": "cards" if all_cards else "best", "deals": n_deals,
           "median_ms": np.median(ms), "p90_ms": np.percentile(ms, 90),
           "p99_ms": np.percentile(ms, 99), "max_ms": ms.max(),
           "knodes_per_s": nodes / times.sum() / 1000, "tt_hit": hits / max(1, probes),
           "mean_value": values.mean(), "median_nodes": np.median(deal_nodes),
           "unfinished": unfinished}
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000, help="4-player deals (default 1000)")
    ap.add_argument("--other-deals", type=int, default=200,
                    help="deals for the other configurations (default 200)")
    ap.add_argument("--f52-deals", type=int, default=50,
                    help="french52 deals (default 50; 13 tricks each)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tt-bits", type=int, default=17)
    ap.add_argument("--node-limit", type=int, default=20_000_000,
                    help="most nodes per solve; a deal over it counts as unfinished (its time "
                    "still counts)")
    ap.add_argument("--only", type=str, default=None, help="run configurations whose label "
                    "contains this text")
    args = ap.parse_args()
    configs = [
        ("foster 4p", Rules("foster", 4), args.deals, False),
        ("foster 4p", Rules("foster", 4), args.deals, True),
        ("foster 2p sets", Rules("foster", 2), args.other_deals, False),
        ("foster 2p sets", Rules("foster", 2), args.other_deals, True),
        ("foster 6p", Rules("foster", 6), args.other_deals, False),
        ("foster 3p sets", Rules("foster", 3), args.other_deals, False),
        ("french52 4p", Rules("french52", 4), args.f52_deals, False),
    ]
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"one thread; load average {load:.2f} on {os.cpu_count()} cores when started; "
          f"table 2**{args.tt_bits} entries")
    head = (f"{'configuration':<16} {'mode':<5} {'deals':>5} {'median':>8} {'p90':>8} "
            f"{'p99':>8} {'max':>8} {'knodes/s':>9} {'TT hit':>7} {'nodes med':>10}")
    print(head)
    for label, rules, n, all_cards in configs:
        if args.only and args.only not in label:
            continue
        if n <= 0:
            continue
        r = bench(label, rules, n, all_cards, args.seed, args.tt_bits, args.node_limit)
        print(f"{r['config']:<16} {r['mode']:<5} {r['deals']:>5} {r['median_ms']:>7.2f}ms "
              f"{r['p90_ms']:>6.2f}ms {r['p99_ms']:>6.1f}ms {r['max_ms']:>6.1f}ms "
              f"{r['knodes_per_s']:>9.0f} {r['tt_hit']:>7.1%} {r['median_nodes']:>10.0f}"
              + (f"  {r['unfinished']} over the node limit" if r["unfinished"] else ""),
              flush=True)
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"load average {load:.2f} when finished")
    return 0


if __name__ == "__main__":
    sys.exit(main())
