"""A deal: the cards dealt to each seat, set by set, with the dealer, trumps, turn-up and
dead cards, as a simulation deals it (:func:`deal`) or from a hand record
(:func:`deal_from_hands`). Layer 2, below the players that need a deal's cards
(:mod:`catchten_sim.pimc`); playing it out is :func:`catchten_sim.play.play`.

>>> from catchten_sim import Rules
>>> from catchten_sim.deals import deal
>>> deal(Rules("foster", 4), seed=1, index=0).dealer
0
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Sequence

import numpy as np

from ._kernels import engine as K
from .cards import cards_of_mask, format_card
from .checks import check_count, check_seed
from .rules import Rules, check_rules
from .state import PlayState

__all__ = ["Deal", "deal", "deal_from_hands"]


@dataclass(frozen=True)
class Deal:
    """A dealt hand of the game (all seats).

    Attributes
    ----------
    rules : Rules
    dealer : int
    set_hands : tuple (n_sets) of tuples (n) of int masks: each seat's cards per set
    trump : int, suit code 0-3 (S H D C) or 4 for no trumps
    turnup : int or None, the turned-up card (the dealer's last card)
    dead : tuple of int, cards laid aside
    rng_state : int, the random stream after the deal (the random policy continues it)
    """

    rules: Rules
    dealer: int
    set_hands: tuple[tuple[int, ...], ...]
    trump: int
    turnup: int | None
    dead: tuple[int, ...]
    rng_state: int = 0x9E3779B97F4A7C15

    def __repr__(self) -> str:
        """The deal as cards (not bitmasks): rules, dealer, trumps, turn-up, each hand."""
        trump = "SHDC"[self.trump] if self.trump < 4 else "no trumps"
        hands = "; ".join(f"{s}: {' '.join(format_card(c) for c in self.hand(s))}"
                          for s in range(self.rules.players))
        extra = (f", turn-up {format_card(self.turnup)}" if self.turnup is not None else "") \
            + (f", dead {' '.join(format_card(c) for c in self.dead)}" if self.dead else "")
        return (f"Deal({self.rules.label()}, dealer {self.dealer}, trumps {trump}{extra}; "
                f"hands by seat {hands})")

    __str__ = __repr__

    def hand(self, seat: int) -> list[int]:
        """A seat's cards in set order (set 1 first), the turn-up last for the dealer."""
        out: list[int] = []
        for st in self.set_hands:
            cards = cards_of_mask(st[seat])
            if seat == self.dealer and self.turnup is not None and self.turnup in cards:
                cards.remove(self.turnup)
                cards.append(self.turnup)
            out += cards
        return out

    def to_record(self, play: Sequence[int] = ()) -> dict[str, Any]:
        """A docs/formats.md hand record of this deal and the given play."""
        rec: dict[str, Any] = {
            "rules": self.rules.preset,
            "variants": dict(self.rules.given_variants()),
            "players": self.rules.players,
            "dealer": self.dealer,
            "hands": [[format_card(c) for c in self.hand(s)] for s in range(self.rules.players)],
            "turnup": None if self.turnup is None else format_card(self.turnup),
            "dead": [format_card(c) for c in self.dead],
            "play": [format_card(c) for c in play],
        }
        return rec

    def play_state(self) -> PlayState:
        """The deal before the first card, as a :class:`~catchten_sim.state.PlayState`."""
        return PlayState(self.rules, self.dealer,
                         [[cards_of_mask(m) for m in row] for row in self.set_hands],
                         turnup=self.turnup, trump=self.trump, dead=self.dead)

    def masks(self) -> np.ndarray:
        return np.array(self.set_hands, dtype=np.int64).reshape(self.rules.n_sets,
                                                                self.rules.players)


def deal(rules: Rules, *, seed: int = 1, index: int = 0) -> Deal:
    """Deal number ``index`` of a simulation with ``seed`` (the dealer is ``index % n``).

    Raises
    ------
    CatchTenError
        ``seed`` or ``index`` out of range.
    """
    seed = check_seed(seed)
    index = check_count("index", index, 0, 2 ** 62 - 1)
    t = check_rules(rules).tables()
    set_hands, dealer, trump, turnup, dead, state = K.deal_one(t, np.uint64(seed),
                                                               np.int64(index))
    return Deal(rules, int(dealer), tuple(tuple(int(x) for x in row) for row in set_hands),
                int(trump), None if turnup < 0 else int(turnup),
                () if dead < 0 else (int(dead),), int(state))


def deal_from_hands(rules: Rules, dealer: int, hands: Sequence[Sequence[int]],
                    turnup: int | None = None, dead: Sequence[int] = (),
                    trump: int | None = None) -> Deal:
    """A :class:`Deal` from card lists per seat in set order (as in a hand record).

    ``trump`` defaults to the turn-up's suit. The caller validates the cards
    (see :mod:`catchten_sim.records`).
    """
    n = rules.players
    size = rules.set_size
    sets = []
    for st in range(rules.n_sets):
        row = []
        for seat in range(n):
            m = 0
            for c in list(hands[seat])[st * size:(st + 1) * size]:
                m |= 1 << int(c)
            row.append(m)
        sets.append(tuple(row))
    trump = rules.deal_trump(None if turnup is None else int(turnup), trump)
    return Deal(rules, int(dealer), tuple(sets), trump,
                None if turnup is None else int(turnup), tuple(int(c) for c in dead))
