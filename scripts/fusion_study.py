#!/usr/bin/env python3
"""Should PIMC choose by the fusion-aware values in small endings? (issue 25 item 4)

Deals ``0 … deals-1`` of ``--seed`` (foster, 4 players) are played with every seat
``pimc:10`` (:class:`catchten_sim.pimc.DealDriver`, the same cards as ``catchten
match``). At every decision of those deals with a choice where the fusion-aware values
apply (:func:`catchten_sim.fusion.for_advice`: at most 3 tricks left, at most 200
consistent deals), the cards of these rules are compared:

* ``pimc10``: the card pimc:10 played there (the game's card);
* ``ipimc10``: ``ipimc:10``'s card without fusion (inference-weighted worlds);
* ``pimc_all``: PIMC over every consistent deal (``choose(info, 200)``);
* ``ipimc_all``: the same, each deal with its inference weight;
* ``X+fusion@M``: rule X, overridden by the best fusion-aware card (one card per
  information set over the next trick, others double-dummy) when fusion values it
  strictly above X's card and by at least ``M`` points.

Where any two rules differ, every legal card is valued by playing out the rest of the
deal with every seat ``pimc:10`` (the mover too, at its later decisions) in every deal
consistent with what the mover knows: the mean (``uniform``), the mean weighted by the
inference weights (``inferred``), and the true deal alone (``true``); the same decision
seeds for every card (common random numbers). For two rules, the paired difference of
their cards' values (points of the rest of the deal for the mover's side) is one number
per decision.

    python scripts/fusion_study.py --deals 300 --seed 7 --out reports/fusion

Writes ``decisions.jsonl`` (one line per decision in scope, appended as they finish:
a Ctrl-C keeps them) and ``summary.json``; prints the summary (``--summary`` reprints it
from an existing ``decisions.jsonl``).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from catchten_sim import Rules, run
from catchten_sim.cards import cards_of_mask, format_card, parse_card
from catchten_sim.deals import Deal
from catchten_sim.deals import deal as make_deal
from catchten_sim.determinize import Sampler
from catchten_sim.evaluators import dealt_hands
from catchten_sim.inference import Inference
from catchten_sim.fusion import (FUSION_MAX_WORLDS, child, for_advice, legal, node_of,
                                 trick_value)
from catchten_sim.pimc import DealDriver, choose, decision_seed
from catchten_sim.position import info_at
from catchten_sim.policies import PimcPolicy
from catchten_sim.state import rule_tables

MARGINS = (0.0, 0.1, 0.25, 0.5, 1.0)


def world_deals(info, d: Deal) -> tuple[list[Deal], int, np.ndarray]:
    """Every deal consistent with ``info`` (as dealt :class:`Deal` objects), the index of
    the true deal ``d`` among them and each one's inference weight (ipimc's model)."""
    s = Sampler(info)
    full = s.full_hands(s.enumerate(s.n_deals))
    weights = Inference(info).weights(full)
    dead = tuple(cards_of_mask(info.dead))
    out, true = [], -1
    for w in range(full.shape[0]):
        dealt = dealt_hands(info, full[w][None])[0]
        hands = tuple(tuple(int(x) for x in row) for row in dealt)
        out.append(Deal(info.rules, info.dealer, hands, int(info.trump), info.turnup, dead))
        if hands == tuple(tuple(int(x) for x in row) for row in d.set_hands):
            true = w
    if true < 0:
        raise RuntimeError("the true deal is not among the consistent deals")
    return out, true, weights


def playout(d: Deal, prefix: list[int], card: int, side: int, key: int,
            executor) -> int:
    """Points of the rest of the deal for ``side`` after ``prefix`` + ``card`` in deal
    ``d``, every seat then playing ``pimc:10`` (decision ``k`` seeded by
    ``decision_seed(key, 0, k)``)."""
    r = d.rules
    t = rule_tables(r, d.trump)
    node = node_of(d, prefix)
    seq = list(prefix)
    total = 0
    c = card
    while True:
        node, win, cards = child(node, c, t)
        seq.append(c)
        if win >= 0:
            total += trick_value(r, t, win, cards, side)
        if node.over:
            return total
        cands = legal(node)
        if len(cands) == 1:
            c = cands[0]
            continue
        info = info_at(d, node.to_move, seq)
        c = choose(info, 10, seed=decision_seed(key, 0, len(seq)), executor=executor)[0]


def study_decision(rules: Rules, d: Deal, seed: int, index: int, k: int, play: list[int],
                   executor) -> dict | None:
    """One decision of the game: the baselines' cards, fusion's values, and where any two
    rules differ, every legal card valued by play-outs (uniform, inference-weighted and
    true-deal means)."""
    prefix = play[:k]
    node = node_of(d, prefix)
    if len(legal(node)) < 2:
        return None
    seat = node.to_move
    info = info_at(d, seat, prefix)
    t0 = time.perf_counter()
    fu = for_advice(info, True, True)
    t_fusion = time.perf_counter() - t0
    if "values" not in fu:
        return {"deal": index, "k": k, "scope": fu["reason"]}
    vals = {parse_card(n): v for n, v in fu["values"].items()}
    base = {"pimc10": play[k],
            "ipimc10": choose(info, 10, seed=decision_seed(seed, index, k), infer=True)[0],
            "pimc_all": choose(info, FUSION_MAX_WORLDS, seed=1)[0],
            "ipimc_all": choose(info, FUSION_MAX_WORLDS, seed=1, infer=True)[0]}
    rec: dict = {"deal": index, "k": k, "seat": seat, "tricks_left": 9 - k // 4,
                 "in_trick": k % 4, "worlds": fu["summary"]["worlds"],
                 "t_fusion": round(t_fusion, 4),
                 "fusion_values": {format_card(c): v for c, v in vals.items()},
                 "cards": {name: format_card(c) for name, c in base.items()}}
    top = max(sorted(vals), key=lambda c: vals[c])
    if len(set(base.values()) | {top}) > 1:
        worlds, true, w = world_deals(info, d)
        side = rules.side_of(seat)
        rec["values"], rec["values_inferred"], rec["values_true"] = {}, {}, {}
        for c in sorted(vals):
            v = np.array([playout(x, prefix, c, side, decision_seed(seed, index, 1000 + i),
                                  executor) for i, x in enumerate(worlds)], dtype=float)
            rec["values"][format_card(c)] = float(v.mean())
            rec["values_inferred"][format_card(c)] = float((w * v).sum() / w.sum())
            rec["values_true"][format_card(c)] = float(v[true])
    return rec


def ci(x: list[float]) -> tuple[float, float, float]:
    a = np.array(x, dtype=float)
    if a.size == 0:
        return float("nan"), float("nan"), float("nan")
    m = float(a.mean())
    h = 1.96 * float(a.std(ddof=1)) / math.sqrt(a.size) if a.size > 1 else float("nan")
    return m, m - h, m + h


def rule_card(rec: dict, rule: str) -> str:
    """The card ``rule`` plays: a baseline's card, or with ``+fusion@M`` fusion's best
    card (ties: the lower card) when fusion values it above the baseline's by more than
    0 and at least ``M``."""
    base, _, m = rule.partition("+fusion@")
    c = rec["cards"][base]
    if not m:
        return c
    fv = rec["fusion_values"]
    top = max(sorted(fv, key=parse_card), key=lambda x: fv[x])
    gain = fv[top] - fv[c]
    return top if gain > 1e-9 and gain >= float(m) else c


def comparisons() -> list[tuple[str, str]]:
    out = []
    for base in ("ipimc10", "pimc10", "pimc_all", "ipimc_all"):
        out += [(f"{base}+fusion@{m}", base) for m in MARGINS]
    return out + [("pimc_all", "ipimc10"), ("ipimc_all", "ipimc10"),
                  ("ipimc_all", "pimc_all"), ("ipimc10+fusion@0.0", "pimc_all")]


MEASURES = (("values", "uniform"), ("values_inferred", "inferred"), ("values_true", "true"))


def compare(scope: list[dict], a: str, b: str) -> dict:
    """Rule ``a`` minus rule ``b``: the paired differences of their cards' values at the
    decisions where they differ, for each measure; per decision in scope too."""
    out: dict = {"differ": 0, "better": 0, "worse": 0}
    diffs: dict[str, list[float]] = {m: [] for _, m in MEASURES}
    kinds: dict[str, list[float]] = {}
    for r in scope:
        ca, cb = rule_card(r, a), rule_card(r, b)
        if ca == cb:
            continue
        out["differ"] += 1
        for key, m in MEASURES:
            diffs[m].append(r[key][ca] - r[key][cb])
        x = diffs["uniform"][-1]
        out["better"] += int(x > 1e-9)
        out["worse"] += int(x < -1e-9)
        kind = f"{r['tricks_left']} tricks left, card {r['in_trick'] + 1} of the trick"
        kinds.setdefault(kind, []).append(x)
    for _, m in MEASURES:
        mean, lo, hi = ci(diffs[m])
        pad = diffs[m] + [0.0] * (len(scope) - len(diffs[m]))
        pm, plo, phi = ci(pad)
        out[m] = {"mean": mean, "ci": [lo, hi], "per_decision": pm,
                  "per_decision_ci": [plo, phi]}
    out["by_kind"] = {k: {"n": len(v), "mean": ci(v)[0], "ci": list(ci(v)[1:])}
                      for k, v in sorted(kinds.items())}
    return out


def summarize(recs: list[dict]) -> dict:
    scope = [r for r in recs if "scope" not in r]
    out: dict = {"decisions_with_a_choice": len(recs), "in_scope": len(scope),
                 "out_of_scope": {}, "valued": sum("values" in r for r in scope),
                 "t_fusion_median": float(np.median([r["t_fusion"] for r in scope]))
                 if scope else None,
                 "t_fusion_mean": float(np.mean([r["t_fusion"] for r in scope]))
                 if scope else None, "comparisons": {}}
    for r in recs:
        if "scope" in r:
            out["out_of_scope"][r["scope"]] = out["out_of_scope"].get(r["scope"], 0) + 1
    for a, b in comparisons():
        out["comparisons"][f"{a} vs {b}"] = compare(scope, a, b)
    return out


def show(s: dict) -> None:
    print(f"{s['decisions_with_a_choice']} decisions with a choice in the last 3 tricks; "
          f"{s['in_scope']} in scope, {s['valued']} valued")
    for why, n in s["out_of_scope"].items():
        print(f"  out of scope: {n} {why}")
    print("rule A vs rule B: decisions where they differ (A better, worse by the")
    print("uniform values); for each measure the mean of A-B there [95%] and per")
    print("decision in scope [95%]")
    for name, c in s["comparisons"].items():
        print(f"{name}: {c['differ']} (+{c['better']} -{c['worse']})")
        for _, m in MEASURES if c["differ"] else ():
            u = c[m]
            print(f"  {m:>8} {u['mean']:+.3f} [{u['ci'][0]:+.3f}, {u['ci'][1]:+.3f}]; "
                  f"per decision {u['per_decision']:+.4f} [{u['per_decision_ci'][0]:+.4f},"
                  f" {u['per_decision_ci'][1]:+.4f}]")
        if name.endswith("@0.0 vs ipimc10"):
            for k, v in c["by_kind"].items():
                print(f"    {k}: n {v['n']}, {v['mean']:+.3f} "
                      f"[{v['ci'][0]:+.3f}, {v['ci'][1]:+.3f}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="reports/fusion")
    ap.add_argument("--summary", action="store_true", help="only reprint the summary")
    ap.add_argument("--pool", action="append", default=[],
                    help="with --summary: also the decisions.jsonl of this folder")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "decisions.jsonl"
    if not a.summary:
        rules = Rules("foster", 4)
        drv = DealDriver(rules, [PimcPolicy(10)] * 4, a.seed)
        ex = run.make_executor(1)
        t0 = time.perf_counter()
        try:
            with path.open("a") as f:
                for i in range(a.start, a.start + a.deals):
                    play = drv.play(i)
                    d = make_deal(rules, seed=a.seed, index=i)
                    for k in range(rules.n_dealt - 12, rules.n_dealt):
                        rec = study_decision(rules, d, a.seed, i, k, play, ex)
                        if rec is not None:
                            f.write(json.dumps(rec) + "\n")
                    f.flush()
                    if (i + 1) % 10 == 0:
                        print(f"  deal {i}: {time.perf_counter() - t0:.0f} s",
                              file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            print("interrupted: the finished deals are kept", file=sys.stderr)
        finally:
            drv.close()
            ex.close()
    recs = []
    for p in [path] + [Path(x) / "decisions.jsonl" for x in a.pool]:
        if p.exists():
            recs += [json.loads(x) for x in p.read_text().splitlines()
                     if x.strip()]
    s = summarize(recs)
    s["command"] = " ".join(["python", "scripts/fusion_study.py"] + sys.argv[1:])
    if not a.summary or a.pool:
        (out / "summary.json").write_text(json.dumps(s, indent=1) + "\n")
    show(s)


if __name__ == "__main__":
    main()
