#!/usr/bin/env python3
"""Two players against the same opponent on the same deals: which gains more, paired.

    catchten match ipimc:10 heuristic --players 4 --deals 2000 --seed 11 \\
        --no-early-stop --threads 1 --run-dir runs/ipimc10
    catchten match pimc:10 heuristic --players 4 --deals 2000 --seed 11 \\
        --no-early-stop --threads 1 --run-dir runs/pimc10
    PYTHONPATH=. python scripts/paired_matches.py runs/ipimc10 runs/pimc10 [--json OUT]

Each run directory holds one duplicate match, A against B, chunk by chunk (a match with a
pimc side keeps every round of deals, one deal per dealer, as its own chunk). With the
same rules, seed, deals and opponent B the two matches play the same cards, so the
difference of their duplicate round values (A1 minus B, minus A2 minus B) pairs round by
round: its mean is how much more A1 gains against B than A2 does, points per deal, with
a 95% interval from the rounds' spread (normal; rounds are independent). This differs
from a head-to-head match (A1 against A2): it measures what each makes of the same
opponent, e.g. of a player its inference models correctly.

Both matches must have run to the same number of rounds (a stopped one is compared on the
rounds both finished, and the output says so).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from typing import NoReturn
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

Z = 1.959963984540054


def _fail(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line, ``error: ...`` (exit 2), as the catchten commands say
    them; ``--help`` shows the usage."""

    def error(self, message: str):  # type: ignore[override]
        _fail(f"{message} (see --help)")


def _difference(a: object, b: object) -> str:
    """Where two manifest values differ, short: the first differing key of two tables
    (``players 4 vs 5``, ``variants.target 31 vs 41``), else the two values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                inner = _difference(a.get(k), b.get(k))
                return f"{k}.{inner}" if isinstance(a.get(k), dict) and \
                    isinstance(b.get(k), dict) else f"{k} {inner}"
    return f"{a} vs {b}"


def round_values(path: Path) -> tuple[dict, dict[int, float]]:
    """The manifest and the duplicate value of each finished round (A minus B, points
    per deal, the mean over seatings), by round number. Read as files (a run made by an
    earlier build of the engine reads too: nothing is played)."""
    try:
        manifest = json.loads((path / "manifest.json").read_text())
    except OSError as exc:
        what = "no manifest.json" if isinstance(exc, FileNotFoundError) else \
            f"manifest.json: {(exc.strerror or 'unreadable').lower()}"
        _fail(f"run-dir: not a run directory ({path}: {what})")
    except ValueError:
        _fail(f"run-dir: not a run directory ({path}: manifest.json is not JSON)")
    if not isinstance(manifest, dict) or manifest.get("kind") != "match":
        kind = manifest.get("kind") if isinstance(manifest, dict) else "not an object"
        _fail(f"run-dir: not a match ({path}: {kind})")
    out: dict[int, float] = {}
    for f in sorted((path / "chunks").glob("chunk-*.parquet")):
        try:
            t = pq.read_table(f)
            first = int(t.column("first").to_numpy()[0])
            count = int(t.column("count").to_numpy()[0])
            v = t.column("value").to_numpy().astype(np.int64).view(np.float64)
        except (OSError, KeyError, IndexError, ValueError, pa.ArrowException):
            _fail(f"run-dir: unreadable chunk ({path}: chunks/{f.name})")
        # float64 bits of [x (count, K) ravel, c (count, K) ravel, w (count,)]
        kk = (len(v) // count - 1) // 2
        x = v[:count * kk].reshape(count, kk)
        for i in range(count):
            out[first + i] = float(x[i].mean())
    return manifest, out


def main(argv: list[str] | None = None) -> int:
    ap = _Parser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a1", type=Path, help="run directory of A1 against B")
    ap.add_argument("a2", type=Path, help="run directory of A2 against B")
    ap.add_argument("--json", type=Path, default=None, help="also write the result here")
    args = ap.parse_args(argv)
    m1, r1 = round_values(args.a1)
    m2, r2 = round_values(args.a2)
    for key in ("rules", "seed", "deals"):
        if m1.get(key) != m2.get(key):
            print(f"error: {key}: the two matches differ "
                  f"({_difference(m1.get(key), m2.get(key))})", file=sys.stderr)
            return 2
    if m1["policies"][1] != m2["policies"][1]:
        print(f"error: b: the opponents differ ({m1['policies'][1]} vs "
              f"{m2['policies'][1]})", file=sys.stderr)
        return 2
    common = sorted(set(r1) & set(r2))
    if len(common) < 2:
        print("error: rounds: fewer than 2 rounds finished in both", file=sys.stderr)
        return 2
    d = np.array([r1[i] - r2[i] for i in common])
    a1 = np.array([r1[i] for i in common])
    a2 = np.array([r2[i] for i in common])
    n = len(d)
    se = float(d.std(ddof=1) / math.sqrt(n))
    se_unpaired = math.sqrt(a1.var(ddof=1) / n + a2.var(ddof=1) / n)
    rounds_total = m1["deals"] // m1["rules"]["players"]
    res = {
        "a1": m1["policies"][0], "a2": m2["policies"][0], "b": m1["policies"][1],
        "rules": m1["rules"], "seed": m1["seed"], "rounds": n,
        "deals": n * m1["rules"]["players"], "rounds_planned": rounds_total,
        "a1_minus_b": float(a1.mean()), "a2_minus_b": float(a2.mean()),
        "difference": float(d.mean()),
        "ci95": [float(d.mean() - Z * se), float(d.mean() + Z * se)],
        "se_paired": se, "se_unpaired": se_unpaired,
        "correlation": float(np.corrcoef(a1, a2)[0, 1]),
        "units": "points per deal, (A1 minus B) minus (A2 minus B), duplicate",
    }
    lo, hi = res["ci95"]
    print(f"{res['a1']} minus {res['b']}: {res['a1_minus_b']:+.2f}; {res['a2']} minus "
          f"{res['b']}: {res['a2_minus_b']:+.2f} points per deal")
    print(f"{res['a1']} gains {res['difference']:+.2f} more a deal against {res['b']} "
          f"than {res['a2']} (95% {lo:+.2f} to {hi:+.2f}), paired over {res['deals']:,} "
          "deals")
    print(f"se paired {se:.3f}, unpaired {se_unpaired:.3f} (correlation of the rounds "
          f"{res['correlation']:.2f})")
    if n < rounds_total:
        print(f"compared on the {n} rounds both finished (of {rounds_total} planned)")
    if args.json:
        args.json.write_text(json.dumps(res, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
