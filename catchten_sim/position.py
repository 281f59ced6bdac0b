"""A decision point seen by one player, and what that player knows (docs/formats.md "Position").

A :class:`Position` is validated when built: the history must be playable under the rules,
the player to move must be ``seat``, and the cards held, played, turned up and laid aside
must be consistent. :meth:`Position.info` replays the history into an :class:`InfoSet`:
the current trick, the points already taken, the voids each player has shown, the hidden
hands' sizes and which cards are known to be where (the turn-up in the dealer's hand, dead
cards). Any sampler of hidden hands must respect all of it (docs/rules.md §1, last line).

The replay is :class:`~catchten_sim.state.PlayState`'s (the package's one Python reading of
the rules of play): first with every hand unknown (who played what, the voids shown), then
with the player to move's current-set hand known (its own plays must have been legal). The
:class:`InfoSet` keeps that state, and :func:`catchten_sim.evaluators.legal_cards` asks it.
Unknown keys in a position are refused (:func:`catchten_sim.errors.check_keys`).

Readings (where docs/rules.md and docs/formats.md are silent):

- A void is shown for the current set only: with six-card sets (2-3 players) every set is
  a fresh hand, and later sets are unseen by everyone, the player to move included.
- A player void in the led suit who does not trump under ``must_trump`` shows no trumps; a
  leader who leads a trump to a set's first trick under ``no_trump_first_lead`` shows
  trumps only. A dealer whose only card of the led suit is a locked ``exposed_trump``
  turn-up shows no other card of that suit.
- A history in which a player plays a suit it had shown void in (a revoke), or in which
  the player to move broke a rule with cards it is known to have held, is refused: a
  position after a revoke is not a position of the game.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Mapping, Sequence

import numpy as np

from .cards import _SUIT_INPUT, cards_of_mask, format_card, parse_card
from .checks import is_whole
from .errors import FORMATS_POINTER, IllegalPlayError, ParseError, PositionError, check_keys
from .inputs import card_at, json_kind, preset_name, read_json_object
from .rules import NO_TRUMPS, Rules
from .state import PlayState

@dataclass(frozen=True)
class InfoSet:
    """What the player to move knows (all masks are Python ints, card bits).

    Attributes
    ----------
    rules, dealer, seat, trump
    set_index : int, the current set (0-based; 0 without sets)
    trick_index : int, the current trick over the whole deal (0-based)
    leader : int, leader of the current trick
    trick : tuple of (seat, card) played to the current trick so far
    played : int, mask of every card played (current trick included)
    played_by : tuple (n) of masks
    my_hand : int, the cards the player to move holds now
    held_count : tuple (n): cards each seat still holds in the current set
    void_suits : tuple (n): 4-bit masks of suits each seat has shown void in this set
    turnup_with_dealer : bool, the turn-up is still the dealer's (unplayed)
    turnup_set : int, the set the turn-up belongs to (its dealer's last set)
    dead : int, mask of dead cards
    cap_honours, cap_cards : tuple (units) of tuples (n_sides): points and cards taken in
        completed tricks, by scoring unit (set with per-set scoring, else one unit)
    ten_taker : int or None, seat that took the Ten of trumps in a completed trick
    trump_leads : tuple (n_sides), times each side led trumps this deal
    score : tuple of side scores before this hand, or None
    """

    rules: Rules
    dealer: int
    seat: int
    trump: int
    turnup: int | None
    set_index: int
    trick_index: int
    leader: int
    trick: tuple[tuple[int, int], ...]
    played: int
    played_by: tuple[int, ...]
    my_hand: int
    held_count: tuple[int, ...]
    void_suits: tuple[int, ...]
    turnup_with_dealer: bool
    dead: int
    cap_honours: tuple[tuple[int, ...], ...]
    cap_cards: tuple[tuple[int, ...], ...]
    ten_taker: int | None
    trump_leads: tuple[int, ...]
    score: tuple[int, ...] | None
    #: masks of the cards taken in completed tricks, per scoring unit and side (empty at
    #: the deal)
    cap_masks: tuple[tuple[int, ...], ...] = ()
    #: the play so far as a :class:`~catchten_sim.state.PlayState` (the player to move's
    #: current-set hand known, the others' unknown)
    state: PlayState | None = field(default=None, repr=False, compare=False)

    def __repr__(self) -> str:
        """Cards as cards (``JS AS``), not bitmasks."""
        tricks = " ".join(format_card(c) for _, c in self.trick)
        return (f"InfoSet({self.rules.label()}, dealer={self.dealer}, seat={self.seat}, "
                f"turnup={'none' if self.turnup is None else format_card(self.turnup)}, "
                f"hand='{' '.join(format_card(c) for c in cards_of_mask(self.my_hand))}', "
                f"trick_index={self.trick_index}, trick='{tricks}', "
                f"held={list(self.held_count)})")

    @property
    def turnup_set(self) -> int:
        return self.rules.n_sets - 1

    def hidden_pool(self) -> int:
        """Cards whose place the player to move does not know (mask)."""
        deck = 0
        for c in self.rules.deck:
            deck |= 1 << c
        known = self.played | self.my_hand | self.dead
        if self.turnup is not None:
            known |= 1 << self.turnup
        return deck & ~known

    def buckets(self) -> list[dict[str, int]]:
        """The hidden hands to fill: one per (set, seat) whose cards are not all known.

        Each is ``{"set", "seat", "size", "void_suits", "fixed"}``: ``size`` hidden cards
        are drawn into it from :meth:`hidden_pool`, none of a suit in ``void_suits``;
        ``fixed`` is the mask of cards known to be there besides (the turn-up).
        """
        r = self.rules
        out = []
        tu_bit = 0 if self.turnup is None or not self.turnup_with_dealer else 1 << self.turnup
        for st in range(self.set_index, r.n_sets):
            for s in range(r.players):
                if st == self.set_index:
                    if s == self.seat:
                        continue
                    size = self.held_count[s]
                    voids = self.void_suits[s]
                else:
                    size = r.set_size
                    voids = 0
                fixed = tu_bit if (s == self.dealer and st == self.turnup_set) else 0
                if fixed:
                    size -= 1
                out.append({"set": st, "seat": s, "size": size, "void_suits": voids,
                            "fixed": fixed})
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "dealer": self.dealer, "trumps": "SHDC"[self.trump]
            if self.trump < NO_TRUMPS else "NT", "set": self.set_index + 1,
            "trick": self.trick_index, "leader": self.leader,
            "trick_so_far": [[s, format_card(c)] for s, c in self.trick],
            "held": list(self.held_count),
            "voids": [[("SHDC")[k] for k in range(4) if v >> k & 1] for v in self.void_suits],
        }


#: the keys of a position (docs/formats.md "Position"; ``variants`` as in a record, ``trump`` with
#: jaques ``dealer_declares``); any other key is refused
POSITION_KEYS = ("rules", "variants", "players", "dealer", "seat", "hand", "turnup", "play",
                 "dead", "score", "trump")


@dataclass(frozen=True)
class Position:
    """A decision point seen by the player to move (docs/formats.md "Position").

    Parameters
    ----------
    rules : Rules
    dealer : int
    seat : int, the player to move
    hand : cards the player holds now (with sets: the current set's cards still held)
    turnup : the turned-up card (None only with jaques ``dealer_declares``, then give
        ``trump``)
    play : every card played so far this hand (all sets), in order
    dead : cards laid aside (``keep_six_of_spades``)
    score : each side's game score before this hand, or None
    trump : suit code 0-3 or 4 (no trumps), only with ``dealer_declares``

    Raises
    ------
    PositionError, ParseError
        One clear message naming the field: malformed card, card not in deck, duplicate
        card, card both held and played, wrong number of cards, turnup not the dealer's,
        not the player to move, a history that is not legal.
    """

    rules: Rules
    dealer: int
    seat: int
    hand: tuple[int, ...]
    turnup: int | None
    play: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()
    score: tuple[int, ...] | None = None
    trump: int | None = None
    _info: InfoSet | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_info", _replay(self))

    def __repr__(self) -> str:
        """Cards as cards (``JS AS``), not indices."""
        def cards(cs: tuple[int, ...]) -> str:
            return " ".join(format_card(c) for c in cs)
        return (f"Position({self.rules.label()}, dealer={self.dealer}, seat={self.seat}, "
                f"hand='{cards(self.hand)}', "
                f"turnup={'none' if self.turnup is None else format_card(self.turnup)}, "
                f"play='{cards(self.play)}', dead='{cards(self.dead)}', score={self.score})")

    def info(self) -> InfoSet:
        """The information set (validated)."""
        assert self._info is not None
        return self._info

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: Rules | None = None) -> Position:
        """Build from a docs/formats.md position object (JSON-like dict)."""
        if not isinstance(data, Mapping):
            raise ParseError("position", "not an object",
                             f"a position is a JSON object, not {json_kind(data)}")
        if "hands" in data and "hand" not in data:    # every seat's cards: a record
            hands = data["hands"]
            game = isinstance(hands, list) and any(isinstance(h, Mapping) for h in hands)
            raise ParseError("position", "not a position", "this is a game record; try "
                             "catchten score" if game else "this is a hand record; try "
                             "catchten solve")
        check_keys(data, POSITION_KEYS, cls=PositionError, pointer=FORMATS_POINTER)
        if rules is None:
            players = data.get("players")
            if players is None:
                raise PositionError("players", "missing", "a position names its player count")
            if not is_whole(players):
                raise PositionError("players", "not a whole number",
                                    f"players={json.dumps(players, default=str)} (a JSON "
                                    "integer such as 4)")
            rules = Rules(preset_name(data.get("rules")), data["players"],
                          data.get("variants") or {})
        dealer = _int_field(data, "dealer", 0, rules.players - 1)
        seat = _int_field(data, "seat", 0, rules.players - 1)
        hand = _json_cards(data, "hand")
        tu = data.get("turnup")
        turnup = None if tu in (None, "") else parse_card(tu, "turnup")
        play = _json_cards(data, "play")
        dead = _json_cards(data, "dead")
        score = data.get("score")
        if score is not None:
            problem = rules.score_problem(score)
            if problem:
                raise PositionError("score", "bad score", problem)
            score = tuple(int(x) for x in score)
        trump = data.get("trump")
        if trump is not None:
            # a suit as cards are read (letters or symbols, docs/formats.md), or NT
            names = {**{k.upper(): v for k, v in _SUIT_INPUT.items()}, "NT": NO_TRUMPS}
            if str(trump).upper() not in names:
                raise PositionError("trump", "bad trump",
                                    f"{json.dumps(trump, default=str, ensure_ascii=False)}: "
                                    "S, H, D, C (or ♠ ♥ ♦ ♣) or NT")
            trump = names[str(trump).upper()]
        return cls(rules, dealer, seat, tuple(hand), turnup, tuple(play), tuple(dead), score,
                   trump)

    @classmethod
    def from_json(cls, path: str | Path) -> Position:
        """Read a position file (``-``: standard input); see :meth:`from_dict`.

        Raises
        ------
        ParseError
            Field ``position``: missing, unreadable, not UTF-8, not JSON, not an object.
        """
        return cls.from_dict(read_json_object(path, "position"))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rules": self.rules.preset, "variants": dict(self.rules.given_variants()),
            "players": self.rules.players, "dealer": self.dealer, "seat": self.seat,
            "hand": [format_card(c) for c in self.hand],
            "turnup": None if self.turnup is None else format_card(self.turnup),
            "play": [format_card(c) for c in self.play],
            "dead": [format_card(c) for c in self.dead]}
        if self.score is not None:
            d["score"] = list(self.score)
        if self.trump is not None:               # declared (jaques dealer_declares)
            d["trump"] = "SHDC"[self.trump] if self.trump < NO_TRUMPS else "NT"
        return d


def _json_cards(data: Mapping[str, Any], name: str) -> list[int]:
    """A position's list of cards ``name`` as written in JSON (docs/formats.md): a list of
    card names such as ``"JS"``, as in a record; left out or null: none (``hand`` is then
    refused for its count). A string of several cards or card codes (ints) is refused as a
    ``malformed card``, not read another way."""
    v = data.get(name)
    if v is None:
        return []
    if not isinstance(v, list):
        raise ParseError(name, "malformed card",
                         f"{name} is {json_kind(v)}, not a list like [\"JS\", \"AS\"]")
    return [card_at(c, name, f"{name}[{i}]") for i, c in enumerate(v)]


def _int_field(data: Mapping[str, Any], name: str, lo: int, hi: int) -> int:
    v = data.get(name)
    if v is None:
        raise PositionError(name, "missing", f"a seat, {lo} to {hi}")
    return _seat_number(name, v, lo, hi)


def _seat_number(name: str, v: Any, lo: int, hi: int) -> int:
    """A seat number (``dealer``, ``seat``): the type first (``not a whole number``: a
    bool, a string, a float such as ``0.0``: JSON files write ``0``), then the range
    (``NAME out of range``)."""
    if not is_whole(v):
        raise PositionError(name, "not a whole number",
                            f"{name}={json.dumps(v, default=str)} (a JSON integer, "
                            f"allowed {lo} to {hi})")
    if not lo <= v <= hi:
        raise PositionError(name, f"{name} out of range",
                            f"{name}={json.dumps(int(v))} (allowed {lo} to {hi})")
    return int(v)


def _replay(p: Position) -> InfoSet:
    r = p.rules
    n = r.players
    deck = set(r.deck)
    # -- cards: in the deck, no duplicates, none both held and played
    for name, cards in (("hand", p.hand), ("play", p.play), ("dead", p.dead)):
        for i, c in enumerate(cards):
            if c not in deck:
                raise PositionError(name, "card not in deck",
                                    f"{name}[{i}]={format_card(c)} with {r.preset}, {n} players")
    for name, cards in (("hand", p.hand), ("dead", p.dead)):
        if len(set(cards)) != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            raise PositionError(name, "duplicate card", f"{name}: {format_card(dup)} twice")
    seen: dict[int, int] = {}
    for i, c in enumerate(p.play):
        if c in seen:
            raise PositionError("play", "card played twice",
                                f"play[{i}]={format_card(c)} (also play[{seen[c]}])")
        seen[c] = i
    both = set(p.hand) & set(p.play)
    if both:
        c = min(both)
        raise PositionError("hand", "card both held and played", format_card(c))
    want_dead = 1 if r.keep_dead_card else 0
    if len(p.dead) != want_dead:
        raise PositionError("dead", "wrong number of cards",
                            f"dead has {len(p.dead)}, expected {want_dead}")
    for c in p.dead:
        if c in p.hand or c in seen:
            raise PositionError("dead", "card both dead and in play", format_card(c))
    # -- trumps and the turn-up
    trump = r.deal_trump(p.turnup, p.trump, PositionError)
    if p.turnup is not None and p.turnup in p.dead:
        raise PositionError("turnup", "turnup not dealer's last card", "it is dead")
    if len(p.play) > r.n_dealt:
        raise PositionError("play", "play longer than deal",
                            f"{len(p.play)} cards played; the deal has {r.n_dealt}")
    if len(p.play) == r.n_dealt:
        raise PositionError("play", "the deal is finished",
                            f"all {r.n_dealt} cards played: no card left to play")
    # -- replay the tricks (docs/rules.md §1-§3 through PlayState): first with every hand
    # unknown, which finds who played each card and what each play showed
    state = _replay_play(p, r, trump, None)
    to_move = state.to_move
    if to_move != p.seat:
        raise PositionError("seat", "not the player to move",
                            f"seat {to_move} is to play, not seat {p.seat}")
    # -- the hands' sizes
    held = state.held_count
    if len(p.hand) != held[p.seat]:
        detail = f"hand has {len(p.hand)}, expected {held[p.seat]}"
        if (p.seat == p.dealer and p.turnup is not None and not state.turnup_played
                and p.turnup not in p.hand and len(p.hand) == held[p.seat] - 1):
            # the turn-up is the dealer's own card until played (docs/rules.md §1)
            # (the count is one short: the line says what to add and where, in 80 columns)
            detail = f"add the turn-up {format_card(p.turnup)} to the dealer's hand"
        raise PositionError("hand", "wrong number of cards", detail)
    set_index = state.set_index
    turnup_with_dealer = p.turnup is not None and not state.turnup_played
    if p.turnup is not None and turnup_with_dealer:
        in_current = r.n_sets == 1 or set_index == r.n_sets - 1
        if p.seat == p.dealer and in_current and p.turnup not in p.hand:
            raise PositionError("turnup", "turnup not dealer's last card",
                                f"{format_card(p.turnup)} is unplayed: put it in the hand")
        if p.turnup in p.hand and not (p.seat == p.dealer and in_current):
            raise PositionError("hand", "card not in hand",
                                f"{format_card(p.turnup)} is the turn-up, the dealer's card")
    # -- again with the current set's hand of the player to move known (its cards now and
    # its plays of this set): its own plays must have been legal with them
    own = [c for c in p.play[_set_start(r, set_index):] if state.played_by[p.seat] >> c & 1]
    state = _replay_play(p, r, trump, (set_index, set(p.hand) | set(own)))
    dead_mask = 0
    for c in p.dead:
        dead_mask |= 1 << c
    played = 0
    for c in p.play:
        played |= 1 << c
    units = state.n_units
    caps = [state.captured(u) for u in range(units)]
    return InfoSet(r, p.dealer, p.seat, trump, p.turnup, set_index, state.trick_index,
                   state.leader, tuple(state.trick), played, tuple(state.played_by),
                   _mask(p.hand), tuple(held), tuple(state.voids), turnup_with_dealer,
                   dead_mask, tuple(tuple(h) for h, _ in caps), tuple(tuple(c) for _, c in caps),
                   state.ten_taker, tuple(state.trump_leads), p.score,
                   tuple(tuple(m) for m in state.cap_masks), state)


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _set_start(r: Rules, set_index: int) -> int:
    """Index in ``play`` of the first card of set ``set_index``."""
    return set_index * r.set_size * r.players


def _replay_play(p: Position, r: Rules, trump: int,
                 known: tuple[int, set[int]] | None) -> PlayState:
    """Replay ``p.play``; every hand unknown except, with ``known = (set, cards)``, the
    player to move's hand in that set. A fault is a :class:`PositionError`."""
    set_hands: list[list[Any]] = [[None] * r.players for _ in range(r.n_sets)]
    if known is not None:
        set_hands[known[0]][p.seat] = known[1]
    state = PlayState(r, p.dealer, set_hands, turnup=p.turnup, trump=trump, dead=p.dead)
    for c in p.play:
        try:
            state.play(c)
        except IllegalPlayError as exc:
            why = exc.why
            detail = exc.detail
            if known is not None and state.to_move == p.seat:
                detail += " (its hand now and its later plays show it)"
            raise PositionError(exc.field, why, detail) from None
    return state


def info_arrays(info: InfoSet) -> dict[str, Any]:
    """The information set as kernel arrays (for the determinization sampler).

    Returns ``pool`` (int64 mask), and per bucket (hidden hand): ``b_set``, ``b_seat``,
    ``b_size``, ``b_voids`` (4-bit suit masks), ``b_fixed`` (int64 masks).
    """
    b = info.buckets()
    return {
        "pool": np.int64(info.hidden_pool()),
        "b_set": np.array([x["set"] for x in b], dtype=np.int64),
        "b_seat": np.array([x["seat"] for x in b], dtype=np.int64),
        "b_size": np.array([x["size"] for x in b], dtype=np.int64),
        "b_voids": np.array([x["void_suits"] for x in b], dtype=np.int64),
        "b_fixed": np.array([x["fixed"] for x in b], dtype=np.int64),
    }


def deal_info(rules: Rules, *, dealer: int, seat: int, hand: Sequence[int],
              turnup: int | None, dead: Sequence[int] = (),
              score: Sequence[int] | None = None) -> InfoSet:
    """What seat ``seat`` knows at the deal, before any card is played (for odds).

    ``hand``: the seat's cards (with six-card sets, its first set only: later sets are
    unseen); ``turnup`` the turned-up card (the dealer's last card: in ``hand`` when
    ``seat`` is the dealer and the deal has one set, never otherwise); ``dead`` the cards
    laid aside (``keep_six_of_spades``).

    Raises
    ------
    PositionError
        A card not in the deck, twice, the wrong number of cards, a misplaced turn-up.
    """
    n = rules.players
    if rules.dealer_declares:
        raise PositionError("turnup", "unsupported",
                            "odds at the deal need a turn-up (dealer_declares has none)")
    for name, v in (("dealer", dealer), ("seat", seat)):
        if v is None:
            raise PositionError(name, "missing", f"a seat, 0 to {n - 1}")
        _seat_number(name, v, 0, n - 1)
    deck = set(rules.deck)
    hand = [int(c) for c in hand]
    dead = [int(c) for c in dead]
    for name, cards in (("hand", hand), ("dead", dead)):
        for i, c in enumerate(cards):
            if c not in deck:
                raise PositionError(name, "card not in deck",
                                    f"{name}[{i}]={format_card(c)} with {rules.preset}, {n} "
                                    "players")
        if len(set(cards)) != len(cards):
            dup = next(c for c in cards if cards.count(c) > 1)
            raise PositionError(name, "duplicate card", f"{name}: {format_card(dup)} twice")
    if len(hand) != rules.set_size:
        raise PositionError("hand", "wrong number of cards",
                            f"hand has {len(hand)}, expected {rules.set_size}")
    want_dead = 1 if rules.keep_dead_card else 0
    if len(dead) != want_dead:
        raise PositionError("dead", "wrong number of cards",
                            f"dead has {len(dead)}, expected {want_dead}")
    if set(dead) & set(hand):
        raise PositionError("dead", "card both dead and in play",
                            format_card(min(set(dead) & set(hand))))
    if turnup is None:
        raise PositionError("turnup", "missing", "the turned-up card is required")
    if turnup not in deck:
        raise PositionError("turnup", "card not in deck", format_card(turnup))
    if turnup in dead:
        raise PositionError("turnup", "turnup not dealer's last card", "it is dead")
    in_hand = turnup in hand
    if seat == dealer and rules.n_sets == 1 and not in_hand:
        raise PositionError("turnup", "turnup not dealer's last card",
                            f"{format_card(turnup)} must be in the dealer's hand")
    if in_hand and not (seat == dealer and rules.n_sets == 1):
        raise PositionError("hand", "card not in hand",
                            f"{format_card(turnup)} is the turn-up, the dealer's card"
                            + (" (of the last set)" if seat == dealer else ""))
    if score is not None:
        score = tuple(int(x) for x in score)
    mask = 0
    for c in hand:
        mask |= 1 << c
    dmask = 0
    for c in dead:
        dmask |= 1 << c
    units = rules.n_sets if rules.per_set_scoring else 1
    zeros = tuple(tuple(0 for _ in range(rules.n_sides)) for _ in range(units))
    return InfoSet(rules, dealer, seat, turnup // 13, turnup, 0, 0, (dealer + 1) % n, (),
                   0, tuple(0 for _ in range(n)), mask,
                   tuple(rules.set_size for _ in range(n)), tuple(0 for _ in range(n)), True,
                   dmask, zeros, zeros, None, tuple(0 for _ in range(rules.n_sides)), score,
                   state=_deal_state(rules, dealer, seat, hand, turnup, dead))


def _deal_state(rules: Rules, dealer: int, seat: int, hand: Sequence[int], turnup: int,
                dead: Sequence[int]) -> PlayState:
    """The deal before the first card, the seat's first-set hand known."""
    set_hands: list[list[Any]] = [[None] * rules.players for _ in range(rules.n_sets)]
    set_hands[0][seat] = hand
    return PlayState(rules, dealer, set_hands, turnup=turnup, dead=dead)


def info_at(d: Any, seat: int, prefix: Sequence[int]) -> InfoSet:
    """What ``seat`` knows after ``prefix`` in the dealt deal ``d`` (a
    :class:`catchten_sim.deals.Deal`): its own hand now and the public play only (the
    position a player at the table would write down)."""
    r = d.rules
    n = r.players
    st = (len(prefix) // n) // r.set_size
    hand = [c for c in cards_of_mask(d.set_hands[st][seat]) if c not in set(prefix)]
    pos = Position(r, d.dealer, seat, tuple(hand), d.turnup, tuple(prefix), tuple(d.dead),
                   None, d.trump if d.turnup is None else None)
    return pos.info()
