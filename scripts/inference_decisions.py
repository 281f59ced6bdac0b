"""Why inference's better calibration does not become strength: decision agreement.

At every decision with a choice (after the first trick) of deals played by ``pimc:10`` at
every seat (foster), the cards chosen by ``pimc:10`` with two decision seeds, ``ipimc:10``,
and ``pimc:BIG`` / ``ipimc:BIG`` (BIG worlds: nearly free of sampling noise), and every
legal card's double-dummy value on the true deal (the mover's side, points of the rest of
the deal) as a proxy of how good each choice was. Prints how often the choices differ and
the paired differences of the true-deal values, per deal (summed over every seat's
decisions; 95% interval over deals).

    python scripts/inference_decisions.py --players 4 --deals 400 --big 200 --seed 7 \
        --out /tmp/why_4p.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from catchten_sim import Rules, run
from catchten_sim.deals import deal as make_deal
from catchten_sim.errors import PositionError
from catchten_sim.evaluators import DoubleDummyEvaluator, legal_cards
from catchten_sim.pimc import DealDriver, choose, decision_seed
from catchten_sim.position import info_at
from catchten_sim.policies import Policy


def _mover(d, prefix):
    """The seat to play after ``prefix`` and what it knows (the position refuses any
    other seat)."""
    for seat in range(d.rules.players):
        try:
            return seat, info_at(d, seat, prefix)
        except PositionError:
            continue
    raise RuntimeError("no seat to play")


def decisions(players: int, deals: int, big: int, seed: int, out: str) -> list[dict]:
    r = Rules("foster", players)
    n = r.players
    drv = DealDriver(r, [Policy.parse("pimc:10")] * n, seed)
    ex = run.make_executor(1)
    rows: list[dict] = []
    t0 = time.time()
    for di in range(deals):
        play = drv.play(di)
        d = make_deal(r, seed=seed, index=di)
        for k in range(n, len(play)):
            seat, info = _mover(d, play[:k])
            cands = legal_cards(info)
            if len(cands) < 2:
                continue
            s1, s2 = decision_seed(seed, di, k), decision_seed(seed + 99, di, k)
            a = choose(info, 10, seed=s1, executor=ex)[0]
            b = choose(info, 10, seed=s2, executor=ex)[0]
            ia = choose(info, 10, seed=s1, executor=ex, infer=True)[0]
            pb = choose(info, big, seed=s1, executor=ex)[0]
            ib, det = choose(info, big, seed=s1, executor=ex, infer=True)
            played = 0
            for x in play[:k]:
                played |= 1 << x
            true = np.array(d.set_hands, dtype=np.int64) & ~np.int64(played)
            ev = DoubleDummyEvaluator(info, cands, executor=ex)
            try:
                tv = dict(zip(cands, ev.measures(true[None], 0)["diff"][0].tolist()))
            finally:
                ev.close()
            rows.append(dict(deal=di, k=k, seat=seat, ncand=len(cands), p10a=a, p10b=b,
                             ip10=ia, pbig=pb, ipbig=ib, ess=float(det.get("ess", 0)),
                             drawn=int(det.get("drawn", 0)), tv_p10=tv[a], tv_ip10=tv[ia],
                             tv_pbig=tv[pb], tv_ipbig=tv[ib], tv_best=max(tv.values())))
        print(f"deal {di + 1}/{deals}: {len(rows)} decisions, {time.time() - t0:.0f} s",
              file=sys.stderr, flush=True)
        with open(out, "w") as f:
            json.dump(rows, f)
    ex.close()
    return rows


def summary(rows: list[dict]) -> None:
    print(f"{len(rows)} decisions over {len({x['deal'] for x in rows})} deals")
    for a, b in [("p10a", "p10b"), ("p10a", "ip10"), ("pbig", "ipbig"), ("p10a", "pbig")]:
        print(f"  {a} and {b} choose differently: "
              f"{np.mean([x[a] != x[b] for x in rows]):.1%}")
    for a, b in [("tv_ipbig", "tv_pbig"), ("tv_ip10", "tv_p10"), ("tv_pbig", "tv_p10")]:
        per: dict[int, float] = {}
        for x in rows:
            per[x["deal"]] = per.get(x["deal"], 0.0) + x[a] - x[b]
        v = np.array(list(per.values()))
        m, se = v.mean(), v.std(ddof=1) / np.sqrt(len(v))
        print(f"  {a[3:]} minus {b[3:]}, true-deal dd points a deal (all seats): "
              f"{m:+.2f} [{m - 1.96 * se:+.2f}, {m + 1.96 * se:+.2f}]")
    loss = {k: np.mean([x["tv_best"] - x["tv_" + k] for x in rows])
            for k in ("p10", "ip10", "pbig", "ipbig")}
    print("  mean loss against the true deal's best card a decision: "
          + ", ".join(f"{k} {v:.3f}" for k, v in loss.items()))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--big", type=int, default=200)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--out", default="inference_decisions.json")
    p.add_argument("--summary-only", action="store_true",
                   help="only summarise an earlier --out file")
    a = p.parse_args()
    if a.summary_only:
        with open(a.out) as f:
            rows = json.load(f)
    else:
        rows = decisions(a.players, a.deals, a.big, a.seed, a.out)
    summary(rows)


if __name__ == "__main__":
    main()
