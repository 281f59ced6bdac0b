#!/usr/bin/env python3
"""The seeds' and old books' advice as reproducible checks (results, not assertions).

1. ``two_rounds``: holding two of J, A, K of trumps (J+A, J+K or A+K; not the Ten), the
   eldest hand leads a top trump to trick 1, wins it, and is on lead again: is a second
   round of trumps better than the best other lead? (4 players, foster, heuristic rollouts.)
2. ``ten_on_partner``: holding the Ten of trumps, with partner's trump winning the trick
   and no unseen trump able to beat it... or not: is playing the Ten better than the best
   other card? (Every position where the Ten's holder may play it on a trick its partner is
   winning with a trump, from heuristic-played deals.)

For each position: ``advise`` with the same seed (common random numbers), the paired
difference (that choice minus the best alternative) in the point difference to the
opponents, with its 95% interval. Summary: the mean over positions and how often the
book's choice was separated above / below the alternative.

    python scripts/advice_checks.py [--deals 4000] [--positions 40] [--samples 4000] [--seed 1]
"""
from __future__ import annotations

import argparse
import statistics

from catchten_sim import Rules
from catchten_sim.advise import advise
from catchten_sim.evaluators import legal_cards
from catchten_sim.cards import cards_of_mask, format_card
from catchten_sim.play import deal, play
from catchten_sim.position import Position

R = Rules("foster", 4)
J, A, K, T = 9, 12, 11, 8        # rank codes


def _pos(pd, n_played):
    d = pd.deal
    seq = pd.play[:n_played]
    t, k = divmod(n_played, 4)
    seat = (pd.tricks[t][0] + k) % 4
    hand = [c for c in cards_of_mask(d.set_hands[0][seat]) if c not in seq]
    return Position.from_dict({"dealer": d.dealer, "seat": seat,
                               "hand": [format_card(c) for c in hand],
                               "turnup": format_card(d.turnup),
                               "play": [format_card(c) for c in seq]}, R)


def two_rounds(n_deals, n_pos, samples, seed):
    rows = []
    for i in range(n_deals):
        d = deal(R, seed=seed, index=i)
        tr = d.trump
        eldest = (d.dealer + 1) % 4
        hand = d.set_hands[0][eldest]
        top = {r for r in (J, A, K) if hand >> (tr * 13 + r) & 1}
        if len(top) < 2 or hand >> (tr * 13 + T) & 1:
            continue
        pd = play(d, "heuristic")
        lead = pd.tricks[0][1][0]
        if lead // 13 != tr or pd.tricks[0][2] != eldest:
            continue
        pos = _pos(pd, 4)
        info = pos.info()
        cands = legal_cards(info)
        if not any(c // 13 == tr for c in cands) or all(c // 13 == tr for c in cands):
            continue
        adv = advise(pos, samples=samples, seed=seed, time_limit=None)
        if adv.trump_lead is None:
            continue
        name = "+".join("JAK"[(J, A, K).index(r)] for r in (J, A, K) if r in top)
        rows.append((name, adv.trump_lead.diff))
        if len(rows) >= n_pos:
            break
    return rows


def ten_on_partner(n_deals, n_pos, samples, seed):
    rows = []
    for i in range(n_deals):
        pd = play(deal(R, seed=seed + 1, index=i), "heuristic")
        tr = pd.deal.trump
        ten = tr * 13 + T
        found = None
        for t, (leader, cards, _) in enumerate(pd.tricks):
            for k in range(1, 4):
                seat = (leader + k) % 4
                sofar = cards[:k]
                trumps = [(c, (leader + j) % 4) for j, c in enumerate(sofar) if c // 13 == tr]
                if not trumps:
                    continue
                order = R.trump_order
                win_c, win_s = max(trumps, key=lambda x: -order.index(x[0] % 13))
                if win_s % 2 != seat % 2:
                    continue
                pos = _pos(pd, 4 * t + k)
                if ten in legal_cards(pos.info()) and len(legal_cards(pos.info())) > 1:
                    found = pos
                    break
            if found:
                break
        if found is None:
            continue
        adv = advise(found, samples=samples, seed=seed, time_limit=None)
        best_other = next(x.card for x in adv.candidates if x.card != ten)
        rows.append(("Ten on partner's trump", adv.compare(ten, best_other).diff))
        if len(rows) >= n_pos:
            break
    return rows


def summary(title, diffs):
    if not diffs:
        print(f"{title}: no position found")
        return
    means = [d.mean for d in diffs]
    above = sum(1 for d in diffs if d.lo > 0)
    below = sum(1 for d in diffs if d.hi < 0)
    print(f"{title}: {len(diffs)} positions; mean paired difference {statistics.mean(means):+.2f}"
          f" points (sd {statistics.pstdev(means):.2f}); separated better in {above}, "
          f"worse in {below}, not separated in {len(diffs) - above - below}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--samples", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rows = two_rounds(a.deals, a.positions, a.samples, a.seed)
    print("1. Second round of trumps (eldest won trick 1 with a top trump), "
          "best trump lead minus best other lead, point difference:")
    for name in ("J+A", "J+K", "A+K", "J+A+K"):
        summary(f"   {name:6}", [d for n, d in rows if n == name])
    summary("   all   ", [d for _, d in rows])
    rows2 = ten_on_partner(a.deals, a.positions, a.samples, a.seed)
    print("2. Holding the Ten, partner's trump winning the trick: play the Ten minus the "
          "best other card, point difference:")
    summary("   all   ", [d for _, d in rows2])


if __name__ == "__main__":
    main()
