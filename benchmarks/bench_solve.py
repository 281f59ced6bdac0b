"""Double-dummy solver speed (issues 9, 26): random deals from the opening lead (and french52
from the 4th trick), one thread.

    PYTHONPATH=$PWD python benchmarks/bench_solve.py                 # 1,000 deals a row
    PYTHONPATH=$PWD python benchmarks/bench_solve.py --f52-deals 200 --deals 300 --cold
    PYTHONPATH=$PWD python benchmarks/bench_solve.py --only "french52 lead" --f52-deals 50 \
        --profile 3                                # where the 3 slowest deals spend nodes

For each configuration: per-solve time (median, 90th and 99th percentile, maximum, in ms,
the kernel call alone, compiled beforehand), nodes per second, the transposition-table hit
rate (hits / probes at trick boundaries), nodes per solve (median, max) and the deals left
with bounds at the node budget. "best" is one solve (the best value); "cards" is the value of
every card of the player to move. Deals are uniform random deals (numpy, seeded), the dealer
rotating; "4th" positions are three tricks of random legal cards later; the table has a
fixed size (``--tt-bits``; by default as ``Solver()`` sizes it, by the deal's size).
``--cold`` times ``catchten solve`` on a worked case in a new process that compiles the
solver with no cache; ``--profile N`` re-solves the N slowest deals of each row and
prints where their nodes go, trick by trick (the kernel's ``S.prof`` counters, compiled in
for this run only: ``CATCHTEN_SOLVE_PROFILE=1``, no cache) and each zero-window test.

Targets (issue 26): french52 from the opening lead median <= 30 ms, p99 <= 1 s, max <= 5 s,
none bounded at the default budget, every opening card <= 3x one solve; foster 4p best
median <= 1.3 ms, p99 <= 20 ms; cold compile of the solve path < 15 s on an idle machine.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_serve import cpu_model  # noqa: E402  (this directory: the CPU's model name)
from catchten_sim._kernels import solve as K  # noqa: E402
from catchten_sim.rules import Rules  # noqa: E402
from catchten_sim.solve import (BIG_DEAL, BIG_TT_BITS, SMALL_TT_BITS, Solver,  # noqa: E402
                                solver_tables)


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


def fourth_trick(rules: Rules, dealer: int, turnup: int, mask_row: np.ndarray,
                 rng: np.random.Generator) -> list[int]:
    """Three tricks of uniformly random legal cards (the play core's rules), the start of
    the 4th trick: a position a player meets early in a deal."""
    from catchten_sim.cards import cards_of_mask
    from catchten_sim.state import PlayState
    ps = PlayState(rules, dealer, [[cards_of_mask(int(m)) for m in row] for row in mask_row],
                   turnup=turnup)
    play = []
    while len(play) < 3 * rules.players:
        legal = ps.legal_cards()
        c = int(legal[rng.integers(len(legal))])
        ps.play(c)
        play.append(c)
    return play


def bench(label: str, rules: Rules, n_deals: int, all_cards: bool, seed: int,
          tt_bits: int | None, node_limit: int, tricks_in: int = 0,
          clock=time.perf_counter) -> dict:
    dealers, turnups, masks = random_deals(rules, n_deals, seed)
    solver = Solver(tt_bits)
    solver.state.st[K.S_LIMIT] = node_limit   # the kernel is called directly below
    rng = np.random.default_rng(seed + 7)
    plays = []
    for d in range(n_deals):
        if tricks_in:
            plays.append(fourth_trick(rules, int(dealers[d]), int(turnups[d]), masks[d], rng))
        else:
            plays.append([])
    out = np.empty((1, 2, 53), np.int64)
    # compile / warm up on the first deal (not timed)
    tables = solver_tables(rules, int(turnups[0]) // 13, int(turnups[0]), int(dealers[0]))
    table = solver.table_for(tables)   # the same size for every deal of a row
    K.ready(solver.state, tables)
    K.solve_batch(tables, solver.state, table, masks[:0], np.zeros(1, np.int64), 0, -1,
                  int(all_cards), out)
    times = np.zeros(n_deals)
    st = solver.state.st
    n0, p0, h0 = st[K.S_NODES], st[K.S_PROBES], st[K.S_HITS]
    values = np.zeros(n_deals, np.int64)
    deal_nodes = np.zeros(n_deals)
    bounded = 0
    for d in range(n_deals):
        tables = solver_tables(rules, int(turnups[d]) // 13, int(turnups[d]), int(dealers[d]))
        play = np.zeros(max(1, len(plays[d])), np.int64)
        play[:len(plays[d])] = plays[d]
        t0 = clock()
        deal_nodes[d] = K.solve_batch(tables, solver.state, table, masks[d:d + 1],
                                      play, len(plays[d]), -1, int(all_cards), out)
        times[d] = clock() - t0
        values[d] = out[0, 0, 52]
        bounded += int(out[0, 0, 52] != out[0, 1, 52] or
                       (out[0, 0, :52] != out[0, 1, :52]).any())
    nodes = st[K.S_NODES] - n0
    probes = st[K.S_PROBES] - p0
    hits = st[K.S_HITS] - h0
    ms = times * 1000
    row = {"config": label, "mode": "cards" if all_cards else "best", "deals": n_deals,
           "median_ms": np.median(ms), "p90_ms": np.percentile(ms, 90),
           "p99_ms": np.percentile(ms, 99), "max_ms": ms.max(),
           "knodes_per_s": nodes / times.sum() / 1000, "tt_hit": hits / max(1, probes),
           "mean_value": values.mean(), "median_nodes": np.median(deal_nodes),
           "max_nodes": deal_nodes.max(), "bounded": bounded,
           "slowest": int(np.argmax(ms)), "order": np.argsort(-ms),
           "run": (rules, dealers, turnups, masks, plays, all_cards, solver)}
    return row


def profile(row: dict, count: int) -> None:
    """Re-solve the ``count`` slowest deals of a row (same scratch, table cleared by a new
    search id) and print where their nodes went: per trick the nodes and their share, at the
    trick's start the share cut by the points in play, by the table, by the quick tricks,
    the probes and their hit rate; over the trick's four plies the nodes searched move by
    move, the share that cut off, of those the share cut by the first move tried, the moves
    tried a node; then each zero-window test (threshold:result:nodes)."""
    rules, dealers, turnups, masks, plays, all_cards, solver = row["run"]
    S = solver.state
    n = rules.players
    tricks = rules.cards_per_player
    out = np.empty((1, 2, 53), np.int64)
    for d in row["order"][:count]:
        d = int(d)
        S.prof[:] = 0
        S.st[K.S_NLOG] = 0
        tables = solver_tables(rules, int(turnups[d]) // 13, int(turnups[d]), int(dealers[d]))
        play = np.zeros(max(1, len(plays[d])), np.int64)
        play[:len(plays[d])] = plays[d]
        K.ready(S, tables)
        nodes = K.solve_batch(tables, S, solver.table_for(tables), masks[d:d + 1], play,
                              len(plays[d]), -1, int(all_cards), out)
        rng = "" if out[0, 0, 52] == out[0, 1, 52] else f" .. {out[0, 1, 52]} (bounded)"
        print(f"  deal #{d}: {nodes:,} nodes, value {out[0, 0, 52]}{rng}")
        P = S.prof.reshape(K.MAX_PLY, K.NPROF)[:tricks * n].reshape(tricks, n, K.NPROF)
        tot = max(1, P[:, :, K.P_NODE].sum())
        print("   trick     nodes  share | start: bound  table quick probes  hit | searched "
              " cut  first tried")
        for t in range(tricks):
            a = P[t]
            k0 = a[0]
            nd = a[:, K.P_NODE].sum()
            exp = a[:, K.P_EXP].sum()
            cut = a[:, K.P_CUT].sum()
            e0 = max(1, k0[K.P_NODE])
            print(f"   {t + 1:5d} {nd:9d} {nd / tot:6.1%} |        {k0[K.P_BOUND] / e0:5.2f}  "
                  f"{k0[K.P_TT] / e0:5.2f} {k0[K.P_QUICK] / e0:5.2f} {k0[K.P_PROBE]:6d} "
                  f"{k0[K.P_HIT] / max(1, k0[K.P_PROBE]):4.2f} | {exp:8d} "
                  f"{cut / max(1, exp):4.2f} {a[:, K.P_CUT1].sum() / max(1, cut):5.2f} "
                  f"{a[:, K.P_TRIED].sum() / max(1, exp):5.2f}")
        for k in range(n):
            a = P[:, k]
            exp = max(1, a[:, K.P_EXP].sum())
            cut = max(1, a[:, K.P_CUT].sum())
            print(f"   card {k + 1} of the trick: cut {a[:, K.P_CUT].sum() / exp:4.2f}, first "
                  f"move {a[:, K.P_CUT1].sum() / cut:4.2f} of cut-offs, "
                  f"{a[:, K.P_TRIED].sum() / exp:4.2f} moves tried")
        log = S.log.reshape(64, 3)[:S.st[K.S_NLOG]]
        print("   tests: " + " ".join(f"{b}:{g}:{nn // 1000}k" for b, g, nn in log))


def table_words(bits: int | None) -> str:
    if bits is None:
        return (f"table 2**{SMALL_TT_BITS} entries, 2**{BIG_TT_BITS} for deals of more than "
                f"{BIG_DEAL} cards")
    return f"table 2**{bits} entries"


def cold_start() -> tuple[float, float]:
    """Wall and CPU seconds (user + system) for a new process to solve one position as a new
    user would (``catchten solve tests/cases/dd/foster4_left4_lead_01.json``), compiling the
    solver from nothing: ``CATCHTEN_NO_CACHE=1``, so nothing is read from the cache (kernel
    by kernel: ``benchmarks/bench_compile.py``)."""
    case = Path(__file__).resolve().parents[1] / "tests" / "cases" / "dd" / \
        "foster4_left4_lead_01.json"
    env = dict(os.environ, CATCHTEN_NO_CACHE="1")
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "catchten_sim.cli", "solve", str(case)],
                         env=env, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("cold start: catchten solve failed")
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000, help="4-player foster deals (default "
                    "1000)")
    ap.add_argument("--other-deals", type=int, default=200,
                    help="deals for the other foster configurations (default 200)")
    ap.add_argument("--f52-deals", type=int, default=1000,
                    help="french52 deals from the opening lead and from the 4th trick "
                    "(default 1000 each; 13 tricks a deal)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tt-bits", type=int, default=None,
                    help="log2 of the table's entries (default: by the deal's size, as "
                    "Solver() sizes it: 17, 21 for deals of more than 40 cards)")
    ap.add_argument("--node-limit", type=int, default=200_000_000,
                    help="most nodes per solve (default the solver's, 200 million); a deal "
                    "over it ends with bounds and counts as bounded (its time counts)")
    ap.add_argument("--only", type=str, default=None, help="run configurations whose label "
                    "contains this text")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="re-solve the N slowest deals of each row and print where their "
                    "nodes go")
    ap.add_argument("--cold", action="store_true",
                    help="also time a cold start: a new process compiling the solver with no "
                    "cache and solving one position (catchten solve on a worked case)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time a solve by the wall clock (default) or by this thread's CPU "
                    "time (the kernel runs in it): on a machine shared with other work, CPU "
                    "time is the solve's own")
    args = ap.parse_args()
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    if args.profile and not K.PROFILE:
        # the counters are compiled in only with this variable (and then without the cache)
        env = dict(os.environ, CATCHTEN_SOLVE_PROFILE="1")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    configs = [
        ("foster 4p", Rules("foster", 4), args.deals, False, 0),
        ("foster 4p", Rules("foster", 4), args.deals, True, 0),
        ("foster 2p sets", Rules("foster", 2), args.other_deals, False, 0),
        ("foster 2p sets", Rules("foster", 2), args.other_deals, True, 0),
        ("foster 6p", Rules("foster", 6), args.other_deals, False, 0),
        ("foster 3p sets", Rules("foster", 3), args.other_deals, False, 0),
        ("french52 lead", Rules("french52", 4), args.f52_deals, False, 0),
        ("french52 lead", Rules("french52", 4), args.f52_deals, True, 0),
        ("french52 4th", Rules("french52", 4), args.f52_deals, False, 3),
    ]
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"{cpu_model()}; one thread; load average {load:.2f} on {os.cpu_count()} cores when "
          f"started; {table_words(args.tt_bits)}; node budget {args.node_limit:,}; "
          f"{args.clock} time")
    head = (f"{'configuration':<16} {'mode':<5} {'deals':>5} {'median':>8} {'p90':>8} "
            f"{'p99':>8} {'max':>8} {'knodes/s':>9} {'TT hit':>7} {'nodes med':>10} "
            f"{'nodes max':>11}")
    print(head)
    for label, rules, n, all_cards, tricks_in in configs:
        if args.only and args.only not in label:
            continue
        if n <= 0:
            continue
        r = bench(label, rules, n, all_cards, args.seed, args.tt_bits, args.node_limit,
                  tricks_in, clock)
        print(f"{r['config']:<16} {r['mode']:<5} {r['deals']:>5} {r['median_ms']:>7.2f}ms "
              f"{r['p90_ms']:>6.2f}ms {r['p99_ms']:>6.1f}ms {r['max_ms']:>6.1f}ms "
              f"{r['knodes_per_s']:>9.0f} {r['tt_hit']:>7.1%} {r['median_nodes']:>10.0f} "
              f"{r['max_nodes']:>11.0f}  slowest deal #{r['slowest']}"
              + (f"  {r['bounded']} bounded (node budget)" if r["bounded"] else ""),
              flush=True)
        if args.profile:
            profile(r, args.profile)
    if args.cold:
        wall, cpu = cold_start()
        print(f"cold start (catchten solve on a worked case, a new process, no cache): "
              f"{wall:.1f} s, {cpu:.1f} s of CPU", flush=True)
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print(f"load average {load:.2f} when finished")
    return 0


if __name__ == "__main__":
    sys.exit(main())
