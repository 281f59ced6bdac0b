#!/usr/bin/env python3
"""Speed of the game level (issue 5 targets).

Run from the repository root (the package installed)::

    python benchmarks/bench_games.py            # the two targets, compile time excluded
    python benchmarks/bench_games.py --cold     # also both CLI commands in a fresh process
                                                # with an empty numba cache (compile included)
    python benchmarks/bench_games.py --json

Targets:

* the 4-player foster equity table from 1,000,000 simulated deals (heuristic) in under
  30 s in all, simulation included, the DP under 1 s;
* ``catchten simulate --games 100000`` (4 players, heuristic) in under 60 s.

Each timing is the best of ``--repeat`` runs after one small warm-up run (which compiles
the kernels or loads them from the cache). Exit status 0 whether or not targets pass.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from catchten_sim import Rules
from catchten_sim.equity import equity_table
from catchten_sim.games import simulate_games
from catchten_sim.checks import max_threads

TARGETS = {"equity_total_s": 30.0, "equity_dp_s": 1.0, "games_s": 60.0}
CLI = [sys.executable, "-c", "import sys; from catchten_sim.cli import main; sys.exit(main())"]


def cold(args: list[str]) -> float:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        t = time.perf_counter()
        subprocess.run(CLI + args, check=True, env=env, stdout=subprocess.DEVNULL)
        return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description="game-level benchmarks")
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--cold", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rules = Rules("foster", 4)
    # warm-up: compile or load the kernels
    equity_table(rules, "heuristic", n_hands=2000, seed=1, threads=a.threads)
    simulate_games(rules, "heuristic", n_games=200, seed=1, threads=a.threads)
    best_eq = None
    for r in range(a.repeat):
        t = time.perf_counter()
        eq = equity_table(rules, "heuristic", n_hands=a.hands, seed=1 + r, threads=a.threads)
        total = time.perf_counter() - t
        if best_eq is None or total < best_eq[0]:
            best_eq = (total, eq.sim_s, eq.dp_s, eq.n_outcomes)
    best_games = None
    for r in range(a.repeat):
        t = time.perf_counter()
        g = simulate_games(rules, "heuristic", n_games=a.games, seed=1 + r, threads=a.threads)
        el = time.perf_counter() - t
        if best_games is None or el < best_games[0]:
            best_games = (el, float(g.to_dict()["hands_per_game"]["mean"]))
    out = {
        "threads": a.threads or max_threads(),
        "equity": {"hands": a.hands, "total_s": round(best_eq[0], 3),
                   "simulation_s": round(best_eq[1], 3), "dp_s": round(best_eq[2], 4),
                   "distinct_outcomes": best_eq[3]},
        "games": {"games": a.games, "seconds": round(best_games[0], 3),
                  "games_per_s": round(a.games / best_games[0]),
                  "hands_per_game": round(best_games[1], 3)},
    }
    if a.cold:
        out["cold"] = {
            "equity_cli_s": round(cold(["equity", "--hands", str(a.hands)]), 2),
            "games_cli_s": round(cold(["simulate", "--games", str(a.games)]), 2),
        }
    out["targets"] = {
        "equity_total_s": [out["equity"]["total_s"], TARGETS["equity_total_s"],
                           out["equity"]["total_s"] < TARGETS["equity_total_s"]],
        "equity_dp_s": [out["equity"]["dp_s"], TARGETS["equity_dp_s"],
                        out["equity"]["dp_s"] < TARGETS["equity_dp_s"]],
        "games_s": [out["games"]["seconds"], TARGETS["games_s"],
                    out["games"]["seconds"] < TARGETS["games_s"]],
    }
    if a.cold:
        for k, name in (("equity_cli_s", "equity_total_s"), ("games_cli_s", "games_s")):
            v = out["cold"][k]
            out["targets"][k + "_cold"] = [v, TARGETS[name], v < TARGETS[name]]
    if a.json:
        print(json.dumps(out, indent=2))
        return 0
    e, g = out["equity"], out["games"]
    print(f"threads: {out['threads']}")
    print(f"equity table, foster 4p heuristic, {e['hands']:,} deals: {e['total_s']:.2f} s in all "
          f"(simulation {e['simulation_s']:.2f} s, DP {e['dp_s']:.4f} s, "
          f"{e['distinct_outcomes']} distinct outcomes)")
    print(f"simulate --games {g['games']:,}, foster 4p heuristic: {g['seconds']:.2f} s "
          f"({g['games_per_s']:,} games/s, {g['hands_per_game']:.2f} hands a game)")
    if a.cold:
        print(f"cold start (fresh numba cache, compile included): catchten equity "
              f"{out['cold']['equity_cli_s']:.1f} s, catchten simulate --games "
              f"{out['cold']['games_cli_s']:.1f} s")
    for k, (v, lim, ok) in out["targets"].items():
        print(f"  {k:22s} {v:8.3f} < {lim:5.1f}  {'PASS' if ok else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
