#!/usr/bin/env python3
"""How well the worlds predict where the unseen cards are: uniform against inference-weighted
(issue 25, item 2).

    python scripts/calibration.py --players 4 --deals 200 --play heuristic
    python scripts/calibration.py --players 4 --deals 100 --play pimc:10 --play random
    python scripts/calibration.py --all --deals 200 --worlds 1000 --eps 0.02 --eps 0.1 \
        --eps 0.3 --eps 0.6 --eps 0.7 --eps 0.8     # the published run (docs/findings.md)

Deals ``0 … deals-1`` of ``--seed`` (foster rules) are played out by every seat with the
``--play`` policy (``heuristic``: the model's own play, "self-play"; ``random`` and
``pimc:N``: a policy other than the model). At every decision of every deal (each card
played, the observer being the seat to play it, knowing what it knows then:
:func:`catchten_sim.position.info_at`), ``--worlds`` worlds are drawn uniformly
(:class:`catchten_sim.determinize.Sampler`) and weighted by the inference model
(:class:`catchten_sim.inference.Inference`, heuristic mixed with uniform, for each
``--eps``). For every unseen card the predicted probability that it lies in each hidden
hand (a bucket: a seat's hand in the current set, or a hand of a later set) is the
uniform share of the worlds, or the weighted share; against where it was in the deal:

* log loss: ``-ln p(true hand)`` per unseen card (nats), the probabilities smoothed as
  ``(1 - 1e-3) p + 1e-3 / buckets`` for both (a share of 0 would be infinite);
* Brier score: ``sum over hands (p - [true])^2`` per unseen card;
* the log loss of the coarser question "which seat holds it in the current set, or is it
  in a later set" (the same as the first without sets);
* all over the cards whose place was uncertain (the uniform probability of the true hand
  below 1: the others cost nothing either way), and the effective size of the weights.

The mixture weight ``eps`` is fitted by maximum likelihood (:func:`inference.fit_eps`) on
every card of the deals of each ``--play`` (the true hands known). A reliability figure
(predicted probability against observed frequency, 10 bins) goes into ``--out``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from catchten_sim import Rules  # noqa: E402
from catchten_sim.determinize import Sampler  # noqa: E402
from catchten_sim.inference import (DEFAULT_EPS, Inference, PlayModel,  # noqa: E402
                                    card_terms, effective_size, fit_eps)
from catchten_sim.pimc import DealDriver, PimcPolicy  # noqa: E402
from catchten_sim.position import info_at  # noqa: E402
from catchten_sim.play import deal as make_deal  # noqa: E402
from catchten_sim.play import play as play_deal  # noqa: E402

SMOOTH = 1e-3
BINS = 10
#: a reliability bin with fewer (card, hand) pairs is not drawn
MIN_BIN = 50


def played_deals(rules: Rules, policy: str, seed: int, deals: int) -> list:
    """(deal, play) for deals ``0 … deals-1`` played by ``policy`` at every seat."""
    out = []
    if policy.startswith("pimc"):
        drv = DealDriver(rules, [PimcPolicy.parse(policy)] * rules.players, seed)
        try:
            for i in range(deals):
                out.append((make_deal(rules, seed=seed, index=i), drv.play(i)))
        finally:
            drv.close()
        return out
    for i in range(deals):
        d = make_deal(rules, seed=seed, index=i)
        out.append((d, play_deal(d, policy).play))
    return out


def fit(rules: Rules, games: list) -> dict:
    """The ML eps on every card of the deals (true hands), and the share of heuristic
    choices among cards with a choice."""
    hits, nls = [], []
    for d, seq in games:
        h, nl = card_terms(rules, d.masks(), d.dealer, d.trump, d.turnup, seq, [1] * len(seq))
        hits.append(h)
        nls.append(nl)
    h = np.concatenate(hits)
    nl = np.concatenate(nls)
    choice = nl > 1
    return {"eps": fit_eps(h, nl), "cards_with_choice": int(choice.sum()),
            "heuristic_share": float((h[choice] == 1).mean())}


def decisions(rules: Rules, games: list, eps_list: list[float], worlds: int, seed: int,
              stride: int) -> dict:
    """Per eps (and 'uniform'): log loss and Brier sums over uncertain unseen cards, the
    reliability bins, and the effective sizes."""
    names = ["uniform"] + [f"eps={e:g}" for e in eps_list]
    acc = {k: {"logloss": 0.0, "brier": 0.0, "n": 0, "logloss_now": 0.0, "bin_p": np.zeros(BINS),
               "bin_y": np.zeros(BINS), "bin_n": np.zeros(BINS)} for k in names}
    ess = {k: [] for k in names[1:]}
    n_dec = 0
    for gi, (d, seq) in enumerate(games):
        for k in range(0, len(seq) - 1, stride):
            st = d.play_state()
            for c in seq[:k]:
                st.play(c)
            info = info_at(d, st.to_move, seq[:k])
            sampler = Sampler(info)
            buckets = sampler.buckets
            if len(buckets) < 2:
                continue
            hidden = sampler.sample(worlds, seed=seed * 1_000_003 + gi * 101 + k)
            hands = sampler.full_hands(hidden)
            truth = {}
            for j, b in enumerate(buckets):
                m = d.set_hands[b["set"]][b["seat"]] & sampler.pool
                for c in range(52):
                    if m >> c & 1:
                        truth[c] = j
            cards = sorted(truth)
            if not cards:
                continue
            # (worlds, cards, buckets) membership
            bits = np.array([[(hidden[:, j] >> c) & 1 for j in range(len(buckets))]
                             for c in cards], dtype=np.float64).transpose(2, 0, 1)
            y = np.zeros((len(cards), len(buckets)))
            y[np.arange(len(cards)), [truth[c] for c in cards]] = 1.0
            wsets = {"uniform": np.ones(worlds)}
            for e, name in zip(eps_list, names[1:]):
                w = Inference(info, PlayModel(e)).weights(hands)
                wsets[name] = w
                ess[name].append(effective_size(w) / worlds)
            p_unif = np.tensordot(wsets["uniform"], bits, axes=1) / worlds
            uncertain = (p_unif * y).sum(axis=1) < 1.0 - 1e-12
            if not uncertain.any():
                continue
            n_dec += 1
            B = len(buckets)
            # the hands of the current set, and all later sets as one
            now = [j for j, b in enumerate(buckets) if b["set"] == info.set_index]
            later = [j for j in range(B) if j not in now]
            y_now = y[:, now]
            if later:
                y_now = np.concatenate([y_now, y[:, later].sum(axis=1, keepdims=True)], 1)
            for name, w in wsets.items():
                p = np.tensordot(w, bits, axes=1) / w.sum()
                ps = (1 - SMOOTH) * p + SMOOTH / B
                a = acc[name]
                pt = (ps * y).sum(axis=1)
                a["logloss"] += float(-np.log(pt[uncertain]).sum())
                a["brier"] += float(((p - y) ** 2).sum(axis=1)[uncertain].sum())
                p_now = p[:, now]
                if later:
                    p_now = np.concatenate([p_now, p[:, later].sum(axis=1, keepdims=True)], 1)
                pn = ((1 - SMOOTH) * p_now + SMOOTH / p_now.shape[1]) * y_now
                a["logloss_now"] += float(-np.log(pn.sum(axis=1)[uncertain]).sum())
                a["n"] += int(uncertain.sum())
                pu, yu = p[uncertain].ravel(), y[uncertain].ravel()
                idx = np.minimum((pu * BINS).astype(int), BINS - 1)
                np.add.at(a["bin_p"], idx, pu)
                np.add.at(a["bin_y"], idx, yu)
                np.add.at(a["bin_n"], idx, 1)
    out = {"decisions": n_dec, "rows": {}}
    for name, a in acc.items():
        n = max(a["n"], 1)
        row = {"logloss": a["logloss"] / n, "brier": a["brier"] / n, "cards": a["n"],
               "logloss_now": a["logloss_now"] / n,
               "bins": [[float(a["bin_p"][i] / a["bin_n"][i]) if a["bin_n"][i] else None,
                         float(a["bin_y"][i] / a["bin_n"][i]) if a["bin_n"][i] else None,
                         int(a["bin_n"][i])] for i in range(BINS)]}
        if name in ess:
            e = np.array(ess[name])
            row["ess_share_median"] = float(np.median(e))
            row["ess_share_p10"] = float(np.quantile(e, 0.1))
        out["rows"][name] = row
    base = out["rows"]["uniform"]
    for row in out["rows"].values():
        row["logloss_vs_uniform"] = row["logloss"] / base["logloss"] - 1.0
        row["brier_vs_uniform"] = row["brier"] / base["brier"] - 1.0
        row["logloss_now_vs_uniform"] = row["logloss_now"] / base["logloss_now"] - 1.0
    return out


def figure(results: list[dict], path: Path) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from catchten_sim.plotting import PALETTE
    plays = list(dict.fromkeys(r["play"] for r in results))
    rows = list(dict.fromkeys(r["players"] for r in results))
    fig = Figure(figsize=(4.0 * len(plays), 4.0 * len(rows) + 0.5))
    FigureCanvasAgg(fig)
    grid = fig.subplots(len(rows), len(plays), squeeze=False)
    for res in results:
        ax = grid[rows.index(res["players"])][plays.index(res["play"])]
        ax.plot([0, 1], [0, 1], color="0.6", lw=0.8, ls=":")
        for j, name in enumerate(("uniform", f"eps={res['eps_shown']:g}")):
            row = res["calibration"]["rows"][name]
            pts = [(p, y) for p, y, n in row["bins"] if n >= MIN_BIN]
            ax.plot([p for p, _ in pts], [y for _, y in pts], marker="o",
                    color=PALETTE[j], label=f"{name}: log loss {row['logloss']:.3f}")
        ax.set_title(f"{res['players']} players, played by {res['play']}", fontsize=10)
        ax.set_xlabel("predicted P(card in this hand)")
        ax.set_ylabel("observed frequency")
        ax.legend(fontsize=8, loc="upper left")
    fig.suptitle("Where the unseen cards are: uniform vs inference-weighted worlds "
                 f"(bins of at least {MIN_BIN} card-hand pairs)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, action="append")
    ap.add_argument("--play", action="append", help="heuristic, random, pimc:N")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=400)
    ap.add_argument("--stride", type=int, default=1, help="every k-th decision")
    ap.add_argument("--eps", type=float, action="append",
                    help="mixture weights to try (default: the fitted ones and 0.1, 0.3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all", action="store_true", help="the published run")
    ap.add_argument("--out", default=str(ROOT / "reports" / "calibration"))
    ap.add_argument("--figure-from", help="only redraw the figure from a calibration.json")
    a = ap.parse_args(argv)
    if a.figure_from:
        figure(json.loads(Path(a.figure_from).read_text()), Path(a.out) / "reliability.png")
        return 0
    players = a.players or [4, 2]
    plays = a.play or (["heuristic", "pimc:10", "random"] if a.all else ["heuristic"])
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    results = []
    t0 = time.time()
    for n in players:
        rules = Rules("foster", n)
        games = {p: played_deals(rules, p, a.seed, a.deals) for p in plays}
        fits = {p: fit(rules, g) for p, g in games.items()}
        for p, f in fits.items():
            print(f"{n} players, played by {p}: ML eps = {f['eps']:.4f} over "
                  f"{f['cards_with_choice']} cards with a choice; heuristic's card "
                  f"{f['heuristic_share']:.1%}", flush=True)
        eps_list = a.eps or sorted({0.02, 0.1, 0.3, DEFAULT_EPS,
                                    round(fits.get("pimc:10", fits[plays[0]])["eps"], 3)})
        for p, g in games.items():
            cal = decisions(rules, g, eps_list, a.worlds, a.seed, a.stride)
            res = {"players": n, "play": p, "deals": a.deals, "worlds": a.worlds,
                   "seed": a.seed, "fit": fits[p],
                   "eps_shown": min(eps_list, key=lambda e: abs(e - DEFAULT_EPS)),
                   "calibration": cal}
            results.append(res)
            print(f"  {n}p {p}: {cal['decisions']} decisions "
                  f"({time.time() - t0:.0f} s)", flush=True)
            for name, row in cal["rows"].items():
                extra = (f"  ESS/worlds median {row['ess_share_median']:.3f} "
                         f"p10 {row['ess_share_p10']:.3f}" if "ess_share_median" in row
                         else "")
                print(f"    {name:>10}: log loss {row['logloss']:.4f} "
                      f"({row['logloss_vs_uniform']:+.1%}; which seat now or later: "
                      f"{row['logloss_now']:.4f}, {row['logloss_now_vs_uniform']:+.1%}), "
                      f"Brier {row['brier']:.4f} "
                      f"({row['brier_vs_uniform']:+.1%}) over {row['cards']} cards{extra}",
                      flush=True)
    (out / "calibration.json").write_text(json.dumps(results, indent=1))
    figure(results, out / "reliability.png")
    print(f"wrote {out / 'calibration.json'} and {out / 'reliability.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
