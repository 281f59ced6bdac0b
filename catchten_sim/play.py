"""One deal at a time: deal it (as a simulation would), play it out, and look at it.

>>> from catchten_sim import Rules
>>> from catchten_sim.play import deal, play
>>> d = deal(Rules("foster", 4), seed=1, index=0)
>>> p = play(d, "heuristic")
>>> p.to_record()["play"][:4]
['7H', 'AH', '8H', '6H']

``deal(rules, seed=s, index=i)`` is deal ``i`` of ``simulate(rules, seed=s)``, and
``play(d, "random")`` continues its random stream, so a single deal of a simulation can
be reproduced and inspected.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Sequence

import numpy as np

from ._kernels import engine as K
from .cards import format_card
from .errors import CatchTenError, not_a
from .policies import Policy, Seating
from .rules import suit_name
from .deals import Deal, deal, deal_from_hands

__all__ = ["Deal", "PlayedDeal", "deal", "deal_from_hands", "play"]


@dataclass(frozen=True)
class PlayedDeal:
    """A deal played out: the tricks and the score (docs/rules.md §2, §6, §7.1).

    Attributes
    ----------
    deal : Deal
    tricks : tuple of (leader, cards in play order, winner)
    honours, cards_taken, card_points, total : tuple per side (points, cards)
    ten_holder, ten_taker : seat or None
    """

    deal: Deal
    tricks: tuple[tuple[int, tuple[int, ...], int], ...]
    honours: tuple[int, ...]
    cards_taken: tuple[int, ...]
    card_points: tuple[int, ...]
    total: tuple[int, ...]
    ten_holder: int | None
    ten_taker: int | None

    def __repr__(self) -> str:
        """Cards as text: the deal, each trick (leader: cards -> winner), the totals."""
        tricks = "; ".join(f"{lead}: {' '.join(format_card(c) for c in cards)} -> {win}"
                           for lead, cards, win in self.tricks)
        return (f"PlayedDeal({self.deal!r}; tricks by seat {tricks}; totals by side "
                f"{list(self.total)}, Ten dealt to {self.ten_holder}, taken by "
                f"{self.ten_taker})")

    __str__ = __repr__

    @property
    def play(self) -> list[int]:
        return [c for _, cards, _ in self.tricks for c in cards]

    @property
    def ten_caught(self) -> bool | None:
        if self.ten_holder is None or self.ten_taker is None:
            return None
        r = self.deal.rules
        return r.side_of(self.ten_holder) != r.side_of(self.ten_taker)

    def to_record(self) -> dict[str, Any]:
        return self.deal.to_record(self.play)

    def to_dict(self) -> dict[str, Any]:
        """The docs/formats.md score output's main keys."""
        r = self.deal.rules
        return {
            "finished": True,
            "trumps": suit_name(self.deal.trump),
            "tricks": [{"leader": ld, "cards": [format_card(c) for c in cs], "winner": w}
                       for ld, cs, w in self.tricks],
            "sides": [{"side": s, "seats": r.seats_of(s), "honours": self.honours[s],
                       "cards_taken": self.cards_taken[s], "card_points": self.card_points[s],
                       "total": self.total[s]} for s in range(r.n_sides)],
            "ten": {"holder": self.ten_holder, "taken_by": self.ten_taker,
                    "caught": self.ten_caught},
            "revoke": None,
        }


def play(d: Deal, policies: Sequence[object] | object = "heuristic", *,
         script: Sequence[int] | None = None, rng_state: int | None = None) -> PlayedDeal:
    """Play a deal to the end with the given policies (one for all seats, or one each).

    ``script``: a list of non-negative ints; every card played (forced ones too) takes the
    next entry ``k`` and plays ``legal[k % len(legal)]`` with ``legal`` ascending by card
    index. With a script, ``policies`` is ignored. ``rng_state`` overrides the deal's
    random stream.

    Raises
    ------
    ArgumentError
        ``deal: not a Deal`` (a CatchTenError and a TypeError).
    """
    if not isinstance(d, Deal):
        raise not_a("deal", "a Deal", d, "e.g. deal(Rules('foster', 4), seed=1)")
    r = d.rules
    n = r.players
    t = r.tables()
    if script is not None:
        pol = np.full(n, K.POL_SCRIPTED, dtype=np.int64)
        scr = np.array(list(script), dtype=np.int64)
        if scr.size < r.n_dealt or (scr < 0).any():
            raise CatchTenError("script", "too short or negative",
                                f"{scr.size} entries for {r.n_dealt} cards")
    else:
        pol = Seating.of(Policy.per_seat(policies, n)).kernel_ids(
            "play() of a given deal")
        scr = np.zeros(1, dtype=np.int64)
    rng = d.rng_state if rng_state is None else rng_state
    ll, lc, _lw, _hon, _cards, _cp, _ten = K.play_given(
        t, d.masks(), d.dealer, d.trump, -1 if d.turnup is None else d.turnup, pol,
        np.uint64(rng), scr)
    # the kernel chose the cards; the rules of play and the scores are PlayState's
    state = d.play_state()
    for i in range(len(ll)):
        for c in lc[i]:
            state.play(int(c))
    tricks = tuple((tr.leader, tr.cards, tr.winner) for tr in state.tricks)
    units = [state.unit_scores(u) for u in range(state.n_units)]
    hon = tuple(sum(u[s]["honours"] for u in units) for s in range(r.n_sides))
    cards = tuple(sum(u[s]["cards_taken"] for u in units) for s in range(r.n_sides))
    cp = tuple(sum(u[s]["card_points"] for u in units) for s in range(r.n_sides))
    total = tuple(h + c for h, c in zip(hon, cp))
    return PlayedDeal(d, tricks, hon, cards, cp, total, state.ten_holder(), state.ten_taker)
