#!/usr/bin/env python3
"""Digests of the ``heuristic`` policy's play over many rule sets: proof that a speed-up
of the heuristic (``catchten_sim/_kernels/policy.py``) keeps every choice identical.

For each of ~22 rule sets (every preset, every player count, every play switch that
changes what the heuristic sees) it hashes

* the outcome rows of ``--deals`` deals (:func:`catchten_sim._kernels.engine.simulate_chunk`,
  every seat ``heuristic``, and again with ``heuristic`` and ``random`` seats alternating,
  so the random draws interleave with the heuristic's choices);
* every card of ``--logged`` deals played one by one (:func:`play_given`, all seats
  heuristic): the play order itself, not only its outcome.

Usage (from the repository root)::

    PYTHONPATH=$PWD python benchmarks/heuristic_digest.py --save /tmp/before.json
    # ... change the heuristic ...
    PYTHONPATH=$PWD python benchmarks/heuristic_digest.py --check /tmp/before.json

Exit status 1 when ``--check`` finds a rule set whose digest changed.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

import numpy as np

CONFIGS = [
    ("foster", 2, {}), ("foster", 3, {}), ("foster", 3, {"small_deal": "whole"}),
    ("foster", 4, {}), ("foster", 4, {"must_trump": True}),
    ("foster", 4, {"no_trump_first_lead": True}), ("foster", 4, {"exposed_trump": True}),
    ("foster", 4, {"ten_of_diamonds_bonus": True}), ("foster", 4, {"card_points": "off"}),
    ("foster", 4, {"everyone_alone": True}),
    ("foster", 5, {"keep_six_of_spades": True, "no_trump_first_lead": True}),
    ("foster", 6, {"exposed_trump": True}), ("foster", 6, {"six_players": "triples"}),
    ("foster", 7, {}), ("foster", 8, {}),
    ("jaques", 4, {}), ("jaques", 4, {"dealer_declares": True, "must_trump": True}),
    ("jaques", 4, {"deck52": True}), ("jaques", 6, {}),
    ("jaques", 6, {"six_as_three_pairs": True}),
    ("french52", 4, {}),
    ("french52", 4, {"must_trump": True, "exposed_trump": True, "no_trump_first_lead": True}),
]


def digests(n_deals: int, n_logged: int, seed: int) -> dict[str, str]:
    from catchten_sim import Rules
    from catchten_sim._kernels import engine as E
    from catchten_sim._kernels.layout import N_FIXED, N_PER_POS, POL_HEURISTIC, POL_RANDOM

    out = {}
    for preset, players, variants in CONFIGS:
        rules = Rules(preset, players, variants)
        tab = rules.tables()
        h = hashlib.sha256()
        width = N_FIXED + players * N_PER_POS
        for pols in ([POL_HEURISTIC] * players,
                     [POL_HEURISTIC if p % 2 == 0 else POL_RANDOM for p in range(players)]):
            rows = np.zeros((n_deals, width), dtype=np.int16)
            E.simulate_chunk(tab, pols, seed, 0, rows)
            h.update(rows.tobytes())
        pols = [POL_HEURISTIC] * players
        for i in range(n_logged):
            set_hands, dealer, trump, turnup, _, s = E.deal_one(tab, seed, i)
            leaders, cards, winners, *_ = E.play_given(tab, set_hands, dealer, trump, turnup,
                                                       pols, s, np.zeros(1, np.int64))
            h.update(np.ascontiguousarray(cards).tobytes())
            h.update(np.ascontiguousarray(winners).tobytes())
        key = f"{preset}/{players}/" + ",".join(f"{k}={v}" for k, v in sorted(variants.items()))
        out[key] = h.hexdigest()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20_000, help="outcome rows per rule set")
    ap.add_argument("--logged", type=int, default=300, help="deals logged card by card")
    ap.add_argument("--seed", type=int, default=20261201)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--save", help="write the digests to this JSON file")
    g.add_argument("--check", help="compare with the digests in this JSON file")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    got = digests(a.deals, a.logged, a.seed)
    meta = {"deals": a.deals, "logged": a.logged, "seed": a.seed}
    print(f"{len(got)} rule sets, {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    if a.save:
        with open(a.save, "w") as f:
            json.dump({"meta": meta, "digests": got}, f, indent=1)
        return 0
    if a.check:
        with open(a.check) as f:
            ref = json.load(f)
        if ref["meta"] != meta:
            print(f"different settings: {ref['meta']} vs {meta}", file=sys.stderr)
            return 1
        bad = [k for k in ref["digests"] if ref["digests"][k] != got.get(k)]
        for k in bad:
            print(f"CHANGED {k}", file=sys.stderr)
        print("identical" if not bad else f"{len(bad)} of {len(got)} changed")
        return 1 if bad else 0
    for k, v in got.items():
        print(v[:16], k)
    return 0


if __name__ == "__main__":
    sys.exit(main())
