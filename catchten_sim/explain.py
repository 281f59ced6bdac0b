"""A few sampled deals behind an advice: the hands (a determinization, or world, of what
the player to move does not see) and the line the rollout policy plays after the
recommended card (``catchten advise --explain N``)."""
from __future__ import annotations

from typing import Any

from ._kernels import rollout as KR
from .advise import Advice
from .cards import cards_of_mask, format_card, parse_card
from .checks import check_count
from .determinize import Sampler
from .evaluators import RolloutEvaluator


#: the most deals :func:`explain` shows
MAX_EXPLAIN = 100


def explain(advice: Advice, n_deals: int = 3, *, card: object = None) -> list[dict[str, Any]]:
    """A few sampled deals (the first ``n_deals`` determinizations of the advice's seed)
    with the line played after the recommended card (or ``card``).

    Returns a list of ``{"sample", "hands": {seat: [cards held now]}, "tricks": [{"leader",
    "cards", "winner"}], "totals": [per side]}``.

    Raises
    ------
    CatchTenError
        Field ``explain``: ``n_deals`` not a whole number from 1 to :data:`MAX_EXPLAIN`.
    """
    n_deals = check_count("explain", n_deals, 1, MAX_EXPLAIN)
    pos = advice.position
    info = pos.info()
    r = pos.rules
    c = int(advice.best) if card is None else (int(card) if isinstance(card, int)
                                               else parse_card(card))
    ev = RolloutEvaluator(info, [c], advice.policies, advice.seed, 1)
    sampler = Sampler(info)
    hidden = sampler.sample(n_deals, seed=advice.seed, start=0)
    hands = sampler.full_hands(hidden)
    deals = []
    for i in range(n_deals):
        leaders, cards, winners, row = ev.line(hands[i:i + 1], i, c)
        tricks = []
        for t in range(info.trick_index, r.n_sets * r.set_size):
            cs = [int(x) for x in cards[t]]
            if t == info.trick_index:
                cs[:len(info.trick)] = [cc for _, cc in info.trick]
                cs[len(info.trick)] = c
            tricks.append({"trick": t, "leader": int(leaders[t]),
                           "cards": [format_card(x) for x in cs],
                           "winner": int(winners[t])})
        held = {s: [format_card(x) for x in cards_of_mask(int(hands[i, info.set_index, s]))]
                for s in range(r.players)}
        totals = [int(row[KR.N_R_FIXED + sd * KR.R_PER_SIDE + KR.R_TOTAL])
                  for sd in range(r.n_sides)]
        deals.append({"sample": i, "hands": held, "tricks": tricks, "totals": totals})
    ev.close()
    return deals
