#!/usr/bin/env python3
"""The arbiter study (issue 25, item 5): on 4-player foster opening leads where the two
evaluators of ``advise`` disagree, which one do rollouts played by the strongest player
(``pimc:10`` at every seat) side with?

    python scripts/arbiter_study.py [--want 30] [--max-leads 400] [--screen 200]
        [--strong pimc:10] [--samples 256] [--time 75] [--jobs 2] [--seed 1]
        [--out reports/arbiter]

1. **Leads.** Deal ``k`` (k = 0, 1, ...) of a 4-player foster simulation with ``--seed``
   (:func:`catchten_sim.play.deal`): the seat on lead at the first trick, its nine cards,
   the turn-up, nothing played. Kept when it holds a trump and a card of another suit
   (so "lead a trump?" is a question).
2. **Screen** (cheap): ``advise --evaluator dd --samples SCREEN`` on the lead; the same
   deals also carry the heuristic rollouts' answer (``Advice.other``). A lead is kept
   when the two models disagree firmly (``Advice.model_note``: on the best card, or on
   "lead a trump?"), until ``--want`` leads are kept.
3. **Arbiter.** On each kept lead, dd's best card A and the heuristic rollouts' best
   card B only (``advise --cards "A B"``) are played out by ``--strong`` at every seat
   (``advise --evaluator rollout --policy pimc:10 --opponents pimc:10``) on paired worlds
   (the same sampled deals, the same decision seeds for both cards), with the stopping
   rule of ``advise`` (first look at 16 worlds, then doubling up to ``--samples``; the
   intervals are valid under early stopping) and ``--time`` seconds a lead at most.
   The paired 95% interval of A minus B decides: above 0, the strong rollouts side with
   dd; below 0, with the heuristic rollouts; else too close to call.

Everything is cached in ``OUT/leads.jsonl`` (one line a screened lead, then one a strong
run): a rerun (or a run after Ctrl-C) resumes where it stopped. The summary is written to
``OUT/study.csv`` (one row a kept lead) and ``OUT/summary.json``, and printed.
Every result depends only on the seed (the worlds and decisions of each run are keyed by
it); ``--jobs`` only sets how many leads run at once (one thread each).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from catchten_sim import Rules
from catchten_sim.advise import advise, trump_answer
from catchten_sim.cards import cards_of_mask, format_card, parse_card
from catchten_sim.play import deal
from catchten_sim.position import Position

RULES = ("foster", 4)


def opening_lead(seed: int, k: int) -> dict | None:
    """The opening lead of deal ``k`` as a position dict, or None when its seat on lead
    holds no trump or only trumps."""
    rules = Rules(*RULES)
    d = deal(rules, seed=seed, index=k)
    st = d.play_state()
    seat = st.to_move
    hand = cards_of_mask(d.set_hands[0][seat])
    trumps = [c for c in hand if c // 13 == d.trump]
    if not trumps or len(trumps) == len(hand):
        return None
    return {"rules": RULES[0], "players": RULES[1], "dealer": d.dealer, "seat": seat,
            "hand": [format_card(c) for c in hand],
            "turnup": None if d.turnup is None else format_card(d.turnup), "play": [],
            "dead": [format_card(c) for c in d.dead]}


def screen(pos: dict, samples: int, seed: int) -> dict:
    """dd advice (with the heuristic rollouts alongside) on ``pos``."""
    t0 = time.process_time()
    adv = advise(Position.from_dict(pos), evaluator="dd", samples=samples, seed=seed,
                 threads=1, time_limit=None)
    o = adv.other or {}
    tl_o = o.get("trump_lead") or {}
    return {"dd_best": format_card(adv.best), "ro_best": o.get("best"),
            "dd_trump": trump_answer(adv.trump_lead),
            "dd_trump_diff": None if adv.trump_lead is None else adv.trump_lead.diff.mean,
            "ro_trump": tl_o.get("answer"),
            "ro_trump_diff": tl_o.get("mean"),
            "n_screen": adv.n_samples, "note": adv.model_note,
            "cpu_screen": time.process_time() - t0}


def strong(pos: dict, a: str, b: str, policy: str, samples: int, limit: float,
           seed: int) -> dict:
    """``policy`` rollouts at every seat on cards ``a`` and ``b`` only: a minus b."""
    t0 = time.process_time()
    w0 = time.perf_counter()
    adv = advise(Position.from_dict(pos), evaluator="rollout", policy=policy,
                 opponents=policy, cards=f"{a} {b}", samples=samples, seed=seed,
                 threads=1, time_limit=limit, min_samples=16)
    c = adv.compare(parse_card(a), parse_card(b))
    side = "dd" if c.diff.lo > 0 else "rollout" if c.diff.hi < 0 else "open"
    return {"policy": policy, "n_worlds": adv.n_samples, "stop": adv.stop, "z": adv.z,
            "a_minus_b": c.diff.mean, "lo": c.diff.lo, "hi": c.diff.hi, "sides_with": side,
            "cpu_strong": time.process_time() - t0, "wall_strong": time.perf_counter() - w0}


def _screen_job(k: int, a: Any) -> dict:
    pos = opening_lead(a.seed, k)
    row: dict[str, Any] = {"k": k, "stage": "screen", "position": pos}
    if pos is not None:
        row.update(screen(pos, a.screen, a.seed))
    return row


def _strong_job(row: dict, a: Any) -> dict:
    return {"k": row["k"], "stage": "strong",
            **strong(row["position"], row["dd_best"], row["ro_best"], a.strong, a.samples,
                     a.time, a.seed)}


def load(path: str) -> dict[tuple[int, str], dict]:
    done: dict[tuple[int, str], dict] = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    done[(r["k"], r["stage"])] = r
    return done


def kind(r: dict) -> str | None:
    """``trump``: the two models lean opposite ways on "lead a trump?" and at least one
    answers firmly (YES or NO); ``card``: else a firm disagreement on the best card
    (``Advice.model_note``); None: no firm disagreement."""
    if not r.get("position") or not r.get("note") or r["dd_best"] == r["ro_best"]:
        return None
    d, o = r.get("dd_trump_diff"), r.get("ro_trump_diff")
    if d is not None and o is not None and d * o < 0 and \
            {r["dd_trump"], r["ro_trump"]} & {"YES", "NO"}:
        return "trump"
    return "card"


def kept(r: dict) -> bool:
    return kind(r) is not None


def run_stage(jobs: list, fn: Any, a: Any, path: str, done: dict) -> None:
    with ProcessPoolExecutor(max_workers=a.jobs) as ex, open(path, "a") as f:
        futs = [ex.submit(fn, j, a) for j in jobs]
        for fu in as_completed(futs):
            r = fu.result()
            done[(r["k"], r["stage"])] = r
            f.write(json.dumps(r) + "\n")
            f.flush()
            if r["stage"] == "strong":
                print(f"lead {r['k']}: {r['n_worlds']} worlds, A-B {r['a_minus_b']:+.2f} "
                      f"[{r['lo']:+.2f}, {r['hi']:+.2f}] -> {r['sides_with']} "
                      f"({r['cpu_strong']:.0f} s CPU)", flush=True)


def summarise(done: dict, a: Any) -> dict:
    rows = []
    for (k, stage), r in sorted(done.items()):
        if stage != "screen" or not kept(r) or (k, "strong") not in done:
            continue
        s = done[(k, "strong")]
        trumpq = (r["dd_trump"], r["ro_trump"])
        rows.append({"k": k, "kind": kind(r), "seat": r["position"]["seat"],
                     "hand": " ".join(r["position"]["hand"]),
                     "turnup": r["position"]["turnup"], "dd_best": r["dd_best"],
                     "ro_best": r["ro_best"], "dd_trump": trumpq[0], "ro_trump": trumpq[1],
                     "dd_trump_diff": r["dd_trump_diff"], "ro_trump_diff": r["ro_trump_diff"],
                     "n_worlds": s["n_worlds"], "stop": s["stop"],
                     "a_minus_b": round(s["a_minus_b"], 3), "lo": round(s["lo"], 3),
                     "hi": round(s["hi"], 3), "sides_with": s["sides_with"],
                     "cpu_s": round(s["cpu_strong"], 1)})
    screened = [r for (k, st), r in done.items() if st == "screen"]
    summary = {
        "command": "python scripts/arbiter_study.py " + " ".join(
            f"--{k.replace('_', '-')} {v}" for k, v in sorted(vars(a).items())),
        "leads_screened": sum(1 for r in screened if r.get("position")),
        "deals_looked_at": len(screened),
        "firm_disagreements": sum(1 for r in screened if kept(r)),
        "on_lead_a_trump": sum(1 for r in screened if kind(r) == "trump"),
        "strong_runs": len(rows),
        "sides_with": {x: sum(1 for r in rows if r["sides_with"] == x)
                       for x in ("dd", "rollout", "open")},
        "sides_with_on_lead_a_trump": {
            x: sum(1 for r in rows if r["sides_with"] == x and r["kind"] == "trump")
            for x in ("dd", "rollout", "open")},
        "cpu_screen_s": round(sum(r.get("cpu_screen", 0) for r in screened), 1),
        "cpu_strong_s": round(sum(r["cpu_s"] for r in rows), 1),
        "worlds_strong": sum(r["n_worlds"] for r in rows),
    }
    if rows:
        with open(os.path.join(a.out, "study.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return summary


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--want", type=int, default=30, help="firm disagreements to arbitrate")
    ap.add_argument("--max-leads", type=int, default=400, help="deals to look at, at most")
    ap.add_argument("--screen", type=int, default=200, help="dd deals a screened lead")
    ap.add_argument("--strong", default="pimc:10", help="the arbiter's policy (every seat)")
    ap.add_argument("--samples", type=int, default=256, help="worlds a strong run, at most")
    ap.add_argument("--time", type=float, default=75.0, help="seconds a strong run, at most")
    ap.add_argument("--jobs", type=int, default=2, help="leads run at once (1 thread each)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="reports/arbiter")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "leads.jsonl")
    done = load(path)
    try:
        k = 0
        while k < a.max_leads and sum(kind(r) == "trump" for (_, st), r in done.items()
                                      if st == "screen") < a.want:
            batch = [j for j in range(k, min(a.max_leads, k + 8 * a.jobs))
                     if (j, "screen") not in done]
            run_stage(batch, _screen_job, a, path, done)
            k += 8 * a.jobs
        # "lead a trump?" disagreements first, then best-card ones, in deal order
        todo = sorted((r for (_, st), r in done.items() if st == "screen" and kept(r)),
                      key=lambda r: (kind(r) != "trump", r["k"]))[:a.want]
        run_stage([r for r in todo if (r["k"], "strong") not in done], _strong_job, a, path,
                  done)
    except KeyboardInterrupt:
        print("interrupted: what finished is kept in", path)
    s = summarise(done, a)
    print(json.dumps(s, indent=1))


if __name__ == "__main__":
    main()
