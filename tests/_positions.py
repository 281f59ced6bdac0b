"""Test helpers: positions cut from randomly played deals, and exact enumeration of the
deals consistent with an information set (small positions only)."""
from __future__ import annotations

from itertools import combinations

from catchten_sim.cards import cards_of_mask, format_card
from catchten_sim.play import deal, play
from catchten_sim.position import Position


def cut_position(rules, seed: int, n_played: int, policy: str = "random", index: int = 0):
    """(Position, PlayedDeal): deal ``index`` of ``seed`` played by ``policy``, seen by the
    player to move after ``n_played`` cards."""
    pd = play(deal(rules, seed=seed, index=index), policy)
    n = rules.players
    seq = pd.play[:n_played]
    t, k = divmod(n_played, n)
    leader = pd.tricks[t][0]
    seat = (leader + k) % n
    st = t // rules.set_size
    hand = [c for c in cards_of_mask(pd.deal.set_hands[st][seat]) if c not in seq]
    d = pd.deal
    pos = Position.from_dict({
        "dealer": d.dealer, "seat": seat, "hand": [format_card(c) for c in hand],
        "turnup": None if d.turnup is None else format_card(d.turnup),
        "play": [format_card(c) for c in seq], "dead": [format_card(c) for c in d.dead]},
        rules)
    return pos, pd


def enumerate_hidden(info):
    """Every assignment of the hidden pool to the buckets (sizes, voids): a list of tuples
    of masks, one per bucket (fixed cards excluded), in ``info.buckets()`` order."""
    buckets = info.buckets()
    pool = cards_of_mask(info.hidden_pool())
    out = []

    def rec(i, rest, acc):
        if i == len(buckets):
            if not rest:
                out.append(tuple(acc))
            return
        b = buckets[i]
        allowed = [c for c in rest if not (b["void_suits"] >> (c // 13)) & 1]
        for combo in combinations(allowed, b["size"]):
            m = 0
            for c in combo:
                m |= 1 << c
            rec(i + 1, [c for c in rest if c not in combo], acc + [m])

    rec(0, pool, [])
    return out
