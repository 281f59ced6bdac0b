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
from .cards import cards_of_mask, format_card
from .errors import CatchTenError
from .policies import Policy
from .rules import Rules, suit_name
from .state import PlayState


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
    if not 0 <= int(seed) < 2 ** 64:
        raise CatchTenError("seed", "out of range", f"seed={seed}")
    if not 0 <= int(index) < 2 ** 62:
        raise CatchTenError("index", "out of range", f"index={index}")
    t = rules.tables()
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
    """
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
        from .pimc import kernel_policies
        pol = kernel_policies(Policy.per_seat(policies, n),
                              "play() of a given deal (simulate plays pimc seats)")
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
