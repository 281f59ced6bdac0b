#!/usr/bin/env python3
"""The strength table (issue 11, item 3): a round robin of duplicate matches.

    PYTHONPATH=. python scripts/strength_table.py       # the table of docs/findings.md
    python scripts/strength_table.py --rows-from reports/strength/strength.json \
        --add reports/calibration/match_*.json         # add matches played on their own
    python scripts/strength_table.py --pimc pimc:10 --pimc-deals 200 --pimc-time 900

Every pair of strategies plays a duplicate match (:func:`catchten_sim.match.match`: every
deal in every seating on the same cards, the heuristic self-play control variate fitted on
a separate pilot) on 4-player foster and on the 2-player sets game (foster, 2 players: 3
sets of 6 cards, scored per set). Matches between the fast kernel policies play
``--deals`` deals; a match with a ``pimc`` side plays ``--pimc-deals`` deals or stops at
``--pimc-time`` seconds. Every match runs to its deals or time (no early stop), so the
intervals are fixed-sample 95% intervals (z 1.96).

Writes ``OUT/strength.csv`` and ``OUT/strength.json`` (one row per match), and
``OUT/strength.png`` (:func:`catchten_sim.plotting.plot_matches`), and prints the table as
Markdown for docs/findings.md.
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

from catchten_sim import Rules
from catchten_sim.match import match

RULES = (("foster", 4), ("foster", 2))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200_000,
                    help="deals of a match between random and heuristic")
    ap.add_argument("--pimc", action="append", default=None,
                    help="pimc players to include (repeatable; default pimc:10)")
    ap.add_argument("--pimc-deals", type=int, default=200)
    ap.add_argument("--pimc-time", type=float, default=900.0,
                    help="seconds at most per match with a pimc side")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, default=Path("reports/strength"))
    ap.add_argument("--rows-from", type=Path, default=None,
                    help="reuse the matches of this strength.json instead of playing them")
    ap.add_argument("--add", type=Path, nargs="*", default=[],
                    help="add these matches (JSON as printed by `catchten match --json`)")
    args = ap.parse_args(argv)
    pimc = args.pimc if args.pimc is not None else ["pimc:10"]
    players = ["random", "heuristic"] + [p for p in pimc if p]
    args.out.mkdir(parents=True, exist_ok=True)
    rows = [] if args.rows_from is None else json.loads(args.rows_from.read_text())
    for preset, n in (RULES if args.rows_from is None else ()):
        rules = Rules(preset, n)
        # strongest first: A is the later (stronger) strategy of the list
        for b, a in itertools.combinations(players, 2):
            slow = "pimc" in a or "pimc" in b
            t0 = time.perf_counter()
            res = match(rules, a, b, deals=args.pimc_deals if slow else args.deals,
                        seed=args.seed, threads=args.threads, stop_early=False,
                        time_limit=args.pimc_time if slow else None)
            d = res.to_dict()
            d["label"] = f"{a} vs {b}, {rules.label()}"
            rows.append(d)
            print(f"{d['label']}: {d['mean_difference']:+.2f} [{d['ci95'][0]:+.2f}, "
                  f"{d['ci95'][1]:+.2f}] points/deal, {d['deals']} deals, stop {d['stop']}, "
                  f"saved x{d['deals_saved_factor']:.1f}, {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    for path in args.add:
        d = json.loads(path.read_text())
        r = d["rules"]
        d["label"] = (f"{d['a']} vs {d['b']}, {Rules(r['preset'], r['players']).label()}"
                      f", seed {d['seed']}")
        # adding a match again replaces it (same label and seed)
        rows = [x for x in rows if (x["label"], x["seed"]) != (d["label"], d["seed"])] + [d]
    rows.sort(key=lambda x: -x["rules"]["players"])  # stable: 4p rows first, as played
    (args.out / "strength.json").write_text(json.dumps(rows, indent=2) + "\n")
    import pandas as pd
    flat = pd.DataFrame([{
        "rules": Rules(r["rules"]["preset"], r["rules"]["players"]).label(),
        "a": r["a"], "b": r["b"], "seed": r["seed"], "deals": r["deals"],
        "mean": r["mean_difference"], "lo": r["ci95"][0], "hi": r["ci95"][1],
        "win_share": r["win_share"]["mean"], "se_plain": r["se"]["plain"],
        "se_duplicate": r["se"]["duplicate"], "se_cv": r["se"]["control_variate"],
        "deals_saved_factor": r["deals_saved_factor"], "stop": r["stop"],
        "label": r["label"]} for r in rows])
    flat.to_csv(args.out / "strength.csv", index=False)
    used = sorted({r["seed"] for r in rows})
    seeds = ("seeds " if len(used) > 1 else "seed ") + ", ".join(str(x) for x in used)
    from catchten_sim.plotting import plot_matches
    fig = plot_matches(flat, title="Strength table: duplicate matches",
                       estimate="duplicate, with a control variate where a pilot ran",
                       footer=f"{seeds}; "
                              f"{flat['deals'].min():,} to {flat['deals'].max():,} duplicate "
                              "deals a match (every match to its deals or time, no early stop); "
                              "scripts/strength_table.py")
    fig.savefig(args.out / "strength.png", dpi=150)
    print("| rules | A | B | seed | deals | A minus B, points per deal (95%) | deals won by A | "
          "deals saved vs plain |")
    print("|---|---|---|---:|---:|---|---:|---:|")
    for _, r in flat.iterrows():
        print(f"| {r['rules']} | {r['a']} | {r['b']} | {r['seed']} | {r['deals']:,} | "
              f"{r['mean']:+.2f} "
              f"[{r['lo']:+.2f}, {r['hi']:+.2f}] | {100 * r['win_share']:.1f}% | "
              f"{r['deals_saved_factor']:.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
