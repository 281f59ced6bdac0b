#!/usr/bin/env python3
"""Coverage of ``advise``'s 95% intervals and its false-separation rate (issue 13 §1).

For fixed positions (three opening leads, four mid-deal), ``advise`` runs at its defaults
(20,000 samples at most, early stopping, practical margin 0.25 points; no time limit so the
result does not depend on the machine's load) over many seeds. Each run's reported
intervals are checked against the truth: the per-card means of a long run (``--truth``
samples, no early stop, another seed). Printed:

- coverage of every kind of reported interval (each measure of each card, the best-vs-
  second margin, the trump-lead comparison): the share of intervals that contain the truth
  (target >= 94.5%);
- false separation: runs whose verdict is "separated" although the named best card is in
  truth not better than the named second (target <= 5% of runs), and runs whose verdict is
  "no practical difference" although the truth differs by the margin or more;
- the "lead a trump?" answers (opening leads): how many were YES / NO / no practical
  difference / too close to call, and how many of the firm ones the truth contradicts;
- how the runs stopped and their mean sample count, in all and per position.

    PYTHONPATH=. python benchmarks/bench_advise_coverage.py [--seeds 300] [--truth 2000000]

The truth's own error (its standard error is sqrt(20,000 / truth) of a full run's, 0.1 at
the default) makes the measured coverage slightly pessimistic.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict

from catchten_sim.advise import advise, trump_answer
from catchten_sim.position import Position

POSITIONS = {
    "opening lead A (issue 13)": {
        "players": 4, "dealer": 3, "seat": 0, "turnup": "7S",
        "hand": "JS AS 9S KH QH 7D 8C 9C TC".split(), "play": []},
    "opening lead B": {
        "players": 4, "dealer": 0, "seat": 1, "turnup": "6H",
        "hand": "AS 9H AH 8D 9D JD KD 8C 9C".split(), "play": []},
    "trick 2, second hand": {
        "players": 4, "dealer": 0, "seat": 1, "turnup": "AS",
        "hand": "7H TH AH JD QD AD 9C AC".split(), "play": "6D 9D KD 8D 9H KH".split()},
    "trick 3, third hand": {
        "players": 4, "dealer": 0, "seat": 0, "turnup": "6H",
        "hand": "QS KS 6H 8H KH JD QD".split(),
        "play": "TC 7C 6C JC TS 6S JS 7S JH 7H".split()},
    "trick 4, second hand": {
        "players": 4, "dealer": 0, "seat": 0, "turnup": "7H",
        "hand": "TS KS 7D 9C TC AC".split(),
        "play": "8D 9D QH 6D JH 7H 6H 9H AH 6S 7S TH 7C".split()},
    "trick 5, third hand": {
        "players": 4, "dealer": 0, "seat": 2, "turnup": "QC",
        "hand": "KS 9H JH QH KD".split(),
        "play": "6S 7S TS 9S 8D 6D 7D JD 6H TH KH AH JS 8S 9D TC 7H TD".split()},
    # where the rule stopped once with "lead a trump?" too close to call (512 deals, seed 7)
    "french52 opening lead": {
        "rules": "french52", "players": 4, "dealer": 3, "seat": 0, "turnup": "3H",
        "hand": "TC KH TS 5S 9S 2H QS AC KC JC 3S QC KS".split(), "play": []},
}
TRUTH_SEED = 987_654_321


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=300, help="advise runs per position")
    ap.add_argument("--truth", type=int, default=2_000_000, help="samples of the long run")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--only", type=str, default=None, help="a position name prefix")
    a = ap.parse_args()
    t_all = time.perf_counter()
    cover: dict[str, list[int]] = defaultdict(lambda: [0, 0])   # kind -> [covered, total]
    runs = false_sep = separated = false_eq = equivalent = 0
    stops: Counter = Counter()
    answers: Counter = Counter()      # "lead a trump?" answers
    false_trump = 0
    samples_used = 0
    for name, d in POSITIONS.items():
        if a.only and not name.startswith(a.only):
            continue
        pos = Position.from_dict(d)
        t0 = time.perf_counter()
        truth = advise(pos, samples=a.truth, seed=TRUTH_SEED, stop_early=False,
                       time_limit=None, threads=a.threads)
        true = {x.card: {k: e.mean for k, e in x.estimates.items()} for x in truth.candidates}
        obj = truth.objective
        p_cov: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        p_fs = p_sep = p_samples = 0
        p_stops: Counter = Counter()
        for seed in range(1, a.seeds + 1):
            adv = advise(pos, seed=seed, time_limit=None, threads=a.threads)
            runs += 1
            stops[adv.stop] += 1
            p_stops[adv.stop] += 1
            samples_used += adv.n_samples
            p_samples += adv.n_samples
            for x in adv.candidates:
                for k, e in x.estimates.items():
                    ok = int(e.lo <= true[x.card][k] <= e.hi)
                    for tab in (cover, p_cov):
                        tab[k][0] += ok
                        tab[k][1] += 1
            for kind, cmp in (("margin (best - second)", adv.margin),
                              ("trump lead (best trump - best other)", adv.trump_lead)):
                if cmp is None:
                    continue
                t = true[cmp.a][obj] - true[cmp.b][obj]
                ok = int(cmp.diff.lo <= t <= cmp.diff.hi)
                for tab in (cover, p_cov):
                    tab[kind][0] += ok
                    tab[kind][1] += 1
            if adv.trump_lead is not None:
                tl = adv.trump_lead
                t = true[tl.a][obj] - true[tl.b][obj]
                ans = str(trump_answer(tl))
                answers[ans] += 1
                false_trump += int(ans == "YES" and t <= 0 or ans == "NO" and t >= 0 or
                                   ans == "no practical difference"
                                   and abs(t) >= adv.practical_margin)
            if adv.margin is not None:
                t = true[adv.margin.a][obj] - true[adv.margin.b][obj]
                v = adv.margin.verdict
                if v == "separated":
                    separated += 1
                    p_sep += 1
                    if t <= 0:
                        false_sep += 1
                        p_fs += 1
                elif v == "no practical difference":
                    equivalent += 1
                    if abs(t) >= adv.practical_margin:
                        false_eq += 1
        worst = min(p_cov.items(), key=lambda kv: kv[1][0] / kv[1][1])
        print(f"{name}: truth {truth.n_samples:,} samples, best {truth.candidates[0].name}; "
              f"{a.seeds} runs in {time.perf_counter() - t0:.1f} s; separated {p_sep}, "
              f"falsely {p_fs}; lowest coverage {worst[0]} "
              f"{100 * worst[1][0] / worst[1][1]:.1f}%")
        print(f"  mean {p_samples / a.seeds:,.0f} samples a run; stops: "
              + ", ".join(f"{k} {v}" for k, v in p_stops.most_common()))
    print()
    print(f"{runs} advise runs at the defaults (samples 20,000, early stop, margin 0.25); "
          f"mean {samples_used / max(runs, 1):,.0f} samples a run; stops: "
          + ", ".join(f"{k} {v}" for k, v in stops.most_common()))
    print("coverage of the reported 95% intervals (target >= 94.5%):")
    for k, (c, n) in sorted(cover.items()):
        print(f"  {k:<40} {100 * c / n:6.2f}%  ({c:,} of {n:,})")
    tc = sum(c for c, _ in cover.values())
    tn = sum(n for _, n in cover.values())
    print(f"  {'all intervals':<40} {100 * tc / tn:6.2f}%  ({tc:,} of {tn:,})")
    print(f"false separation (target <= 5% of runs): {false_sep} of {runs} runs "
          f"({100 * false_sep / max(runs, 1):.2f}%); {false_sep} of {separated} "
          f"separated verdicts")
    print(f"false 'no practical difference': {false_eq} of {equivalent} such verdicts")
    if answers:
        print("lead a trump? " + ", ".join(f"{k} {v}" for k, v in answers.most_common())
              + f"; {false_trump} firm answers the truth contradicts")
    print(f"total {time.perf_counter() - t_all:.0f} s")


if __name__ == "__main__":
    main()
