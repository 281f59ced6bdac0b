"""The play of one deal in readable Python: every rule of play written once
(docs/rules.md §1-§3, §7).

:class:`PlayState` follows one deal card by card with the *verify / can / do* pattern:

- :meth:`PlayState.legal_cards` - the cards the player to move may play;
- :meth:`PlayState.verify_play` - raise the error naming the rule a card would break;
- :meth:`PlayState.can_play` - the same as a bool;
- :meth:`PlayState.play` - play a card (after verifying it), finish the trick, pass to the
  next set.

Records (:mod:`catchten_sim.records`), positions (:mod:`catchten_sim.position`), advice
(:mod:`catchten_sim.advise`) and :mod:`catchten_sim.play` use it instead of their own copies.
The numba kernels (:mod:`catchten_sim._kernels`) implement the same rules for speed; a parity
test (``tests/test_state_parity.py``) checks that the two agree. ``docs/rule_index.md`` lists,
rule by rule, the kernel function, the method here and the test.

Hands may be unknown: a seat whose cards are not known (a position seen by one player) is
given as ``None``. Such a seat may play any card not known to be elsewhere; the voids it shows
(:attr:`PlayState.voids`) are then checked instead of its hand: playing a suit it has shown
void in this set is a revoke.

Rule tables (trump order, honours, the 10♦ bonus, count-out steps, the Ten of trumps) come
from :meth:`catchten_sim.rules.Rules.tables`, the same tables the kernels use.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import N_CARD_CODES, SUIT_CHARS, Card, _shown, format_card, parse_card
from .errors import CatchTenError, IllegalPlayError, ParseError, RevokeError
from .rules import COUNT_OUT_STEPS, NO_TRUMPS, Rules, check_rules

__all__ = ["PlayState", "RuleTables", "Trick", "card_points", "check_deal", "rule_tables",
           "split_sets", "unit_scores"]

N_STEPS = len(COUNT_OUT_STEPS)
STEP_CARDS = COUNT_OUT_STEPS.index("cards")
ALL_SUITS = 0xF


# ------------------------------------------------------------------------------ tables
@dataclass(frozen=True)
class RuleTables:
    """The rule tables of one :class:`Rules` with one trump suit, as Python lists.

    Attributes
    ----------
    trump : int, suit code 0-3 (S H D C) or 4 for no trumps
    trump_power : list (52) of int, > 0 for a trump (higher wins), else 0 (docs/rules.md §2, §4)
    rank_power : list (52) of int, strength of a card in its own suit (docs/rules.md §1)
    honours : list (52) of int, honour points (the 10♦ bonus included, §7.2)
    step : list (52) of int, count-out step of those points (index in ``COUNT_OUT_STEPS``)
    ten : int, the Ten of trumps (-1 with no trumps)
    """

    trump: int
    trump_power: tuple[int, ...]
    rank_power: tuple[int, ...]
    honours: tuple[int, ...]
    step: tuple[int, ...]
    ten: int

    def power(self, card: int, led: int) -> int:
        """Strength of ``card`` in a trick led in suit ``led`` (docs/rules.md §1); 0 cannot win."""
        tp = self.trump_power[card]
        if tp > 0:
            return tp
        return self.rank_power[card] if card // 13 == led else 0

    def winner_index(self, cards: Sequence[int]) -> int:
        """Index in ``cards`` (play order) of the card that wins the trick (docs/rules.md §1):
        the highest trump, else the highest card of the led suit."""
        led = cards[0] // 13
        return max(range(len(cards)), key=lambda i: self.power(cards[i], led))

    def is_trump(self, card: int) -> bool:
        return self.trump < NO_TRUMPS and card // 13 == self.trump


_TABLE_CACHE: dict[tuple, RuleTables] = {}


def rule_tables(rules: Rules, trump: int) -> RuleTables:
    """The :class:`RuleTables` of ``rules`` with trumps ``trump`` (cached)."""
    key = (rules.preset, rules.players, tuple(sorted(rules.variants.items())), trump)
    t = _TABLE_CACHE.get(key)
    if t is None:
        kt = rules.tables()
        t = _TABLE_CACHE[key] = RuleTables(
            trump, tuple(int(x) for x in kt.trump_power[trump]),
            tuple(int(x) for x in kt.rank_power), tuple(int(x) for x in kt.honours[trump]),
            tuple(int(x) for x in kt.step[trump]), int(kt.ten_card[trump]))
    return t


# ------------------------------------------------------------------------------ tricks
@dataclass(frozen=True)
class Trick:
    """A completed trick.

    Attributes
    ----------
    index : int, over the whole deal from 0 (docs/rules.md §7.5)
    set : int, the set it belongs to, from 1
    leader : int, the seat that led
    cards : tuple of int, in play order
    winner : int, the seat that won it
    """

    index: int
    set: int
    leader: int
    cards: tuple[int, ...]
    winner: int


def unit_scores(rules: Rules, table: RuleTables, tricks: Iterable[Trick]) -> list[dict[str, Any]]:
    """Each side's score from a scoring unit's tricks (docs/rules.md §2, §7.1, §7.2).

    Returns
    -------
    list (n_sides) of dict
        ``honours`` (the 10♦ bonus included), ``cards_taken``, ``card_points``
        (``max(0, cards taken - share)``, 0 when card points are off), ``total`` and
        ``steps``: the total split by count-out step (§7.10; ``COUNT_OUT_STEPS`` order).
    """
    steps = [[0] * N_STEPS for _ in range(rules.n_sides)]
    taken = [0] * rules.n_sides
    for t in tricks:
        side = rules.side_of(t.winner)
        taken[side] += len(t.cards)
        for c in t.cards:
            if table.honours[c]:
                steps[side][table.step[c]] += table.honours[c]
    out = []
    for side in range(rules.n_sides):
        honours = sum(steps[side])
        cp = card_points(rules, taken[side])
        steps[side][STEP_CARDS] = cp
        out.append({"honours": honours, "cards_taken": taken[side], "card_points": cp,
                    "total": honours + cp, "steps": steps[side]})
    return out


def card_points(rules: Rules, cards_taken: int) -> int:
    """Card points of a side in one scoring unit: one per card above the share
    (docs/rules.md §2), none when ``card_points = off`` (§3)."""
    return max(0, cards_taken - rules.share) if rules.card_points else 0


def split_sets(rules: Rules, hands: Sequence[Iterable[Any] | None]
               ) -> list[list[list[Any] | None]]:
    """Each seat's cards in set order (as in a hand record; None: unknown) split into
    ``rules.n_sets`` sets of ``set_size``; the last set takes whatever is left, so that a
    hand of the wrong length keeps its length for :func:`check_deal`."""
    size = rules.set_size
    last = rules.n_sets - 1
    cards = [None if h is None else list(h) for h in hands]
    return [[None if h is None else h[k * size:None if k == last else (k + 1) * size]
             for h in cards] for k in range(rules.n_sets)]


def check_deal(rules: Rules, set_hands: Sequence[Sequence[Sequence[int] | None]],
               dead: Sequence[int]) -> None:
    """The checks of a dealt deal, in RULES.md's checking order for records: cards in the
    deck (hands, then ``dead``), duplicates (hands, then ``dead``), cards per hand.
    ``set_hands`` (n_sets, n) lists of card indices, None for a hand not known; a seat's
    cards are counted over its known sets (``set_size`` each). Positions in the details
    are in the seat's cards in set order (``hands[seat][j]``), as a hand record writes
    them. Used by hand records and :class:`PlayState`.

    Raises
    ------
    ParseError
        ``wrong number of hands``, ``card not in deck``, ``duplicate card``, ``wrong number
        of cards``; field ``hands`` or ``dead``.
    """
    n = rules.players
    if len(set_hands) != rules.n_sets or any(len(r) != n for r in set_hands):
        raise ParseError("hands", "wrong number of hands",
                         f"{rules.n_sets} set(s) of {n} hands expected, got "
                         f"{[len(r) for r in set_hands]}")
    # each seat's known cards in set order, and how many it should hold
    seats: list[list[int]] = [[] for _ in range(n)]
    want = [0] * n
    for set_row in set_hands:
        for seat, h in enumerate(set_row):
            if h is not None:
                seats[seat].extend(h)
                want[seat] += rules.set_size
    deck = set(rules.deck)
    for i, held in enumerate(seats):
        for j, c in enumerate(held):
            if c not in deck:
                raise ParseError("hands", "card not in deck",
                                 f"hands[{i}][{j}]={format_card(c)} with {rules.preset}, "
                                 f"{n} players")
    for j, c in enumerate(dead):
        if c not in deck:
            raise ParseError("dead", "card not in deck",
                             f"dead[{j}]={format_card(c)} with {rules.preset}, {n} players")
    seen: set[int] = set()
    for i, held in enumerate(seats):
        for j, c in enumerate(held):
            if c in seen:
                raise ParseError("hands", "duplicate card", f"hands[{i}][{j}]={format_card(c)}")
            seen.add(c)
    for j, c in enumerate(dead):
        if c in seen:
            raise ParseError("dead", "duplicate card", f"dead[{j}]={format_card(c)}")
        seen.add(c)
    for i, held in enumerate(seats):
        if len(held) != want[i]:
            raise ParseError("hands", "wrong number of cards",
                             f"hands[{i}] has {len(held)}, expected {want[i]}")


# ------------------------------------------------------------------------------ the state
class PlayState:
    """One deal being played, card by card (docs/rules.md §1-§3, §7.1-§7.6).

    Parameters
    ----------
    rules : Rules
    dealer : int
    set_hands : sequence (n_sets) of sequence (n) of card collections or None
        Each seat's cards in each set (one set unless dealt in six-card sets); ``None`` for a
        seat whose cards are unknown. A 2-D list of plain hands (one set) is also accepted
        through :meth:`from_hands`.
    turnup : int or None
        The turned-up card (the dealer's last card); None with ``dealer_declares``.
    trump : int or None
        Suit code 0-3 or 4 (no trumps); defaults to the turn-up's suit, and must be it;
        required with ``dealer_declares``.
    dead : sequence of int
        Cards laid aside (``keep_six_of_spades``), known to all and never played.

    Attributes
    ----------
    hands : list (n) of set or None, the current set's cards each seat still holds
    voids : list (n) of int, 4-bit masks of the suits each seat has shown void in this set
    tricks : list of :class:`Trick`, the completed tricks
    trick : list of (seat, card), the current trick so far
    played : list of int, every card played, in order
    revoke : dict or None, the first revoke let through by ``play(..., allow_revoke=True)``
        (``seat``, ``trick``, ``card`` (text), ``why`` (the rule broken, as the
        :class:`~catchten_sim.errors.RevokeError` detail says it); ``set`` from 1 with sets)
    """

    def __init__(self, rules: Rules, dealer: int,
                 set_hands: Sequence[Sequence[Iterable[int] | None]], *,
                 turnup: int | None = None, trump: int | None = None,
                 dead: Iterable[int] = ()) -> None:
        self.rules = check_rules(rules)
        self.n = rules.players
        if isinstance(dealer, bool) or not hasattr(dealer, "__index__") \
                or not 0 <= dealer.__index__() < self.n:
            raise CatchTenError("dealer", "dealer out of range",
                                f"dealer={_shown(dealer)} (allowed 0 to {self.n - 1})")
        self.dealer = dealer.__index__()
        self.turnup = None if turnup is None else self._deal_card(turnup, "turnup")
        self.trump = rules.deal_trump(self.turnup, trump)
        self.table = rule_tables(rules, self.trump)
        self.dead = tuple(self._deal_card(c, "dead") for c in dead)
        self._deck_mask = int(rules.tables().deck_mask)
        self.set_size = rules.set_size
        self.n_tricks = rules.n_sets * rules.set_size
        self._set_hands = self._check_deal(set_hands)
        # switches read once (docs/rules.md §3)
        self.exposed = rules.exposed_trump and self.turnup is not None
        self.no_trump_first_lead = rules.no_trump_first_lead and self.trump < NO_TRUMPS
        self.must_trump = rules.must_trump and self.trump < NO_TRUMPS
        self.leader = (self.dealer + 1) % self.n  # the eldest hand leads (§1)
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[Trick] = []
        self.played: list[int] = []
        self._played_set: set[int] = set()
        self.played_by = [0] * self.n            # masks of the cards each seat played
        self.turnup_played = False
        self.ten_taker: int | None = None
        self.trump_leads = [0] * rules.n_sides   # trumps led by each side (at the lead)
        self.revoke: dict[str, Any] | None = None
        units = rules.n_sets if rules.per_set_scoring else 1
        self.cap_masks = [[0] * rules.n_sides for _ in range(units)]
        self._load_set(0)

    def _deal_card(self, card: Any, field: str) -> int:
        """A card of the deal as written down (an index or a name, :meth:`card_of`), in
        this deck; errors name ``field``."""
        try:
            c = self.card_of(card)
        except ParseError as e:
            raise ParseError(field, e.why, e.detail) from None
        if c not in self.rules.deck:
            raise ParseError(field, "card not in deck",
                             f"{field}={format_card(c)} with {self.rules.preset}, "
                             f"{self.n} players")
        return c

    def _check_deal(self, set_hands: Sequence[Sequence[Iterable[Any] | None]]
                    ) -> list[list[frozenset[int] | None]]:
        """``set_hands`` as frozensets of card indices, after :func:`check_deal` (one hand
        or None, unknown, per seat and set; the deck's cards, each once, dead included;
        ``set_size`` cards a known hand) and the turn-up's check: the dealer's last card,
        so in the dealer's hand of the last set when known, in no other known hand.
        Errors name ``hands`` or ``turnup``."""
        cards = [[None if h is None else [self._deal_card(c, "hands") for c in h]
                  for h in row] for row in set_hands]
        check_deal(self.rules, cards, self.dead)
        out = [[None if h is None else frozenset(h) for h in row] for row in cards]
        if self.turnup is not None:
            last = out[-1][self.dealer]
            holder = next((f"hands[{seat}]" for row in out for seat, h in enumerate(row)
                           if h is not None and self.turnup in h), None)
            if (last is not None and self.turnup not in last) or \
                    (holder is not None and last is None):
                raise ParseError("turnup", "turnup not dealer's last card",
                                 f"{format_card(self.turnup)} is in "
                                 f"{holder or 'no hand'}, not in dealer {self.dealer}'s")
        return out

    @classmethod
    def from_hands(cls, rules: Rules, dealer: int, hands: Sequence[Sequence[int] | None],
                   **kw: Any) -> PlayState:
        """From each seat's cards in set order (as in a hand record): split into sets."""
        return cls(rules, dealer, split_sets(rules, hands), **kw)

    # -------------------------------------------------------------- where we are
    def _load_set(self, k: int) -> None:
        """A new set is a fresh hand: its cards, no voids shown (docs/rules.md §2 sets)."""
        self.hands: list[set[int] | None] = [None if h is None else set(h)
                                             for h in self._set_hands[k]]
        self.voids = [0] * self.n
        self.counts = [0] * self.n

    @property
    def trick_index(self) -> int:
        """The current trick, over the whole deal from 0."""
        return len(self.tricks)

    @property
    def set_index(self) -> int:
        """The current set, from 0."""
        return min(self.trick_index, self.n_tricks - 1) // self.set_size

    @property
    def finished(self) -> bool:
        return len(self.tricks) == self.n_tricks

    @property
    def to_move(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.trick)) % self.n

    @property
    def led_suit(self) -> int | None:
        return self.trick[0][1] // 13 if self.trick else None

    @property
    def held_count(self) -> list[int]:
        """Cards each seat still holds in the current set."""
        return [self.set_size - c for c in self.counts]

    def first_lead_of_set(self) -> bool:
        """True at the opening lead of a set (docs/rules.md §7.6: ``no_trump_first_lead``)."""
        return not self.trick and self.trick_index % self.set_size == 0

    def locked_turnup(self, seat: int) -> int | None:
        """The exposed turn-up when ``seat`` may not play it yet (docs/rules.md §3
        ``exposed_trump``, §7.6: it may be played in the last two tricks of the deal), else
        None. A locked turn-up does not count as holding its suit (§7.3)."""
        if (self.exposed and seat == self.dealer and not self.turnup_played
                and self.trick_index < self.n_tricks - 2):
            hand = self.hands[seat]
            if hand is None or self.turnup in hand:
                return self.turnup
        return None

    def _playable(self, seat: int) -> set[int]:
        hand = self.hands[seat]
        assert hand is not None
        lock = self.locked_turnup(seat)
        return {c for c in hand if c != lock}

    # -------------------------------------------------------------- can / verify
    def legal_cards(self) -> list[int]:
        """The cards the player to move may play, ascending (docs/rules.md §1, §3, §7.6).

        Follow suit if able, else any card (``must_trump``: a trump if able);
        ``no_trump_first_lead``: no trump at a set's opening lead unless holding only trumps;
        ``exposed_trump``: not the turn-up before the deal's last two tricks.

        Raises
        ------
        ValueError
            The hand of the player to move is unknown, or the deal is over.
        """
        if self.finished:
            raise ValueError("the deal is over")
        seat = self.to_move
        if self.hands[seat] is None:
            raise ValueError(f"the hand of seat {seat} is unknown")
        playable = self._playable(seat)
        trump = self.trump
        led = self.led_suit
        if led is None:
            legal = playable
            if self.no_trump_first_lead and self.first_lead_of_set():
                legal = {c for c in playable if c // 13 != trump} or playable
        else:
            legal = {c for c in playable if c // 13 == led}
            if not legal and self.must_trump:
                legal = {c for c in playable if c // 13 == trump}
            if not legal:
                legal = playable
        return sorted(legal)

    @staticmethod
    def card_of(card: int | str | Card) -> int:
        """``card`` as a card index: an index 0-51 (an int, not a bool or a float), a card
        name as :func:`~catchten_sim.cards.parse_card` reads it (``JS``, ``10H``) or a
        :class:`~catchten_sim.cards.Card`.

        Raises
        ------
        ParseError
            Field ``card``: ``malformed card`` (not an int or a card name), ``card not in
            deck`` (an index outside 0-51).
        """
        if isinstance(card, (str, Card)):
            return parse_card(card, "card")
        if isinstance(card, bool) or not hasattr(card, "__index__"):
            raise ParseError("card", "malformed card",
                             f"card={_shown(card)}: give a card index (int) or a name such as "
                             "JS or 10H")
        c = card.__index__()
        if not 0 <= c < N_CARD_CODES:
            raise ParseError("card", "card not in deck",
                             f"card={c}: a card index is 0 to {N_CARD_CODES - 1}")
        return c

    def can_play(self, card: int | str | Card) -> bool:
        """True when the player to move may play ``card`` (:meth:`verify_play` passes).

        Raises
        ------
        ParseError
            ``card`` is not a card (:meth:`card_of`); an illegal card gives False.
        """
        try:
            self.verify_play(card)
        except IllegalPlayError:
            return False
        return True

    def verify_play(self, card: int | str | Card) -> None:
        """Raise the error naming the rule that playing ``card`` now would break.

        ``card``: a card index or name (:meth:`card_of`). A card outside this deal's deck is
        ``card not in hand`` (the deck's check for a seat whose hand is unknown).

        Checks in the order of docs/rules.md's checking order for records: played twice, not in
        hand, exposed trump, trump led first, revoke.

        Raises
        ------
        IllegalPlayError
            ``card played twice``, ``card not in hand`` (also: the turn-up by anyone but
            the dealer or before the dealer's last set, a dead card), ``exposed trump played
            early`` (§3 ``exposed_trump``, §7.6), ``trump led first`` (§3
            ``no_trump_first_lead``, §7.6).
        RevokeError
            Why ``revoke``: not following suit while holding the led suit (§1), or
            discarding while holding a trump under ``must_trump`` (§3); with an unknown
            hand, playing a suit the seat has shown void in this set.
        ParseError
            ``card`` is not a card (:meth:`card_of`).
        """
        if self.finished:
            raise IllegalPlayError("play", "play longer than deal",
                                   f"{len(self.played) + 1} cards played, "
                                   f"{self.rules.n_dealt} dealt")
        card = self.card_of(card)
        seat = self.to_move
        where = f"play[{len(self.played)}]={format_card(card)}"
        hand = self.hands[seat]
        if card in self._played_set:
            raise IllegalPlayError("play", "card played twice", where)
        if hand is not None and card not in hand:
            raise IllegalPlayError("play", "card not in hand", f"{where} by seat {seat}")
        if not self._deck_mask >> card & 1:
            raise IllegalPlayError("play", "card not in hand",
                                   f"{where}: not in the deck of these rules")
        if card in self.dead:
            raise IllegalPlayError("play", "card not in hand", f"{where}: a dead card")
        if card == self.turnup:
            if seat != self.dealer:
                raise IllegalPlayError("play", "card not in hand",
                                       f"{where} is the dealer's turn-up, played by seat {seat}")
            if self.set_index != self.rules.n_sets - 1:
                raise IllegalPlayError("play", "card not in hand",
                                       f"{where}: the turn-up belongs to the dealer's last set")
        if card == self.locked_turnup(seat):
            raise IllegalPlayError("play", "exposed trump played early",
                                   f"{where} in trick {self.trick_index} (exposed_trump: "
                                   "not before the last two tricks, docs/rules.md §3, §7.6)")
        suit = card // 13
        if hand is None:
            # an unknown hand: only what it has shown (its voids this set) can be checked
            if self.voids[seat] >> suit & 1 and card != self.turnup:
                raise RevokeError("play", "revoke",
                                  f"{where}: seat {seat} had shown void in "
                                  f"{SUIT_CHARS[suit]} this set")
            return
        playable = self._playable(seat)
        trump = self.trump
        if self.led_suit is None:
            if (self.no_trump_first_lead and self.first_lead_of_set() and suit == trump
                    and any(c // 13 != trump for c in playable)):
                raise IllegalPlayError("play", "trump led first",
                                       f"{where}: seat {seat} holds other suits "
                                       "(no_trump_first_lead, docs/rules.md §3, §7.6)")
            return
        led = self.led_suit
        if suit != led and any(c // 13 == led for c in playable):
            raise RevokeError("play", "revoke",
                              f"{where}: seat {seat} holds {SUIT_CHARS[led]}, the led suit "
                              "(follow suit, docs/rules.md §1)")
        if (self.must_trump and suit != led and suit != trump
                and any(c // 13 == trump for c in playable)):
            raise RevokeError("play", "revoke",
                              f"{where}: seat {seat} holds a trump (must_trump, docs/rules.md §3)")

    # -------------------------------------------------------------- do
    def play(self, card: int | str | Card, *, allow_revoke: bool = False) -> Trick | None:
        """Play ``card`` for the player to move; returns the trick when it completes one.

        ``allow_revoke``: a revoke is not refused but kept in :attr:`revoke` (the first one
        only) and the card counts as played (docs/rules.md §7.3); every other fault raises.

        Raises
        ------
        IllegalPlayError, RevokeError, ParseError
            As :meth:`verify_play`.
        """
        card = self.card_of(card)
        seat = self.to_move
        try:
            self.verify_play(card)
        except RevokeError as exc:
            if not allow_revoke:
                raise
            if self.revoke is None:
                self.revoke = {"seat": seat, "trick": self.trick_index,
                               "card": format_card(card), "why": exc.detail}
                if self.rules.n_sets > 1:
                    self.revoke["set"] = self.set_index + 1
        self._infer_voids(seat, card)
        hand = self.hands[seat]
        if hand is not None:
            hand.discard(card)
        if not self.trick and self.table.is_trump(card):
            self.trump_leads[self.rules.side_of(self.leader)] += 1
        self.played.append(card)
        self._played_set.add(card)
        self.played_by[seat] |= 1 << card
        self.counts[seat] += 1
        if card == self.turnup:
            self.turnup_played = True
        self.trick.append((seat, card))
        if len(self.trick) < self.n:
            return None
        return self._finish_trick()

    def _infer_voids(self, seat: int, card: int) -> None:
        """What the play shows to everyone (docs/rules.md §1, last line)."""
        suit = card // 13
        trump = self.trump
        led = self.led_suit
        if led is None:
            if self.no_trump_first_lead and self.first_lead_of_set() and suit == trump:
                self.voids[seat] |= ALL_SUITS & ~(1 << trump)  # it held trumps only
        elif suit != led:
            self.voids[seat] |= 1 << led
            if self.must_trump and suit != trump:
                self.voids[seat] |= 1 << trump

    def _finish_trick(self) -> Trick:
        """The winner takes the trick and leads next, also to the next set (docs/rules.md §1,
        §2)."""
        cards = tuple(c for _, c in self.trick)
        winner = self.trick[self.table.winner_index(cards)][0]
        k = self.trick_index
        t = Trick(k, k // self.set_size + 1, self.leader, cards, winner)
        self.tricks.append(t)
        side = self.rules.side_of(winner)
        unit = k // self.set_size if self.rules.per_set_scoring else 0
        for c in cards:
            self.cap_masks[unit][side] |= 1 << c
        if self.table.ten in cards:
            self.ten_taker = winner
        self.leader = winner
        self.trick = []
        if len(self.tricks) % self.set_size == 0 and not self.finished:
            self._load_set(len(self.tricks) // self.set_size)
        return t

    # -------------------------------------------------------------- scores
    @property
    def n_units(self) -> int:
        """Scoring units: each set with per-set scoring, else the whole deal."""
        return len(self.cap_masks)

    def unit_tricks(self, u: int) -> list[Trick]:
        """The completed tricks of scoring unit ``u``."""
        if self.rules.per_set_scoring:
            return self.set_tricks(u)
        return list(self.tricks)

    def set_tricks(self, k: int) -> list[Trick]:
        """The completed tricks of set ``k`` (from 0)."""
        return [t for t in self.tricks if t.set == k + 1]

    def unit_scores(self, u: int) -> list[dict[str, Any]]:
        """Each side's score from the completed tricks of scoring unit ``u`` (docs/rules.md §2,
        §7.1, §7.2); see :func:`unit_scores`."""
        return unit_scores(self.rules, self.table, self.unit_tricks(u))

    def captured(self, u: int) -> tuple[list[int], list[int]]:
        """``(honours, cards)`` taken by each side in the completed tricks of unit ``u``."""
        sc = self.unit_scores(u)
        return [s["honours"] for s in sc], [s["cards_taken"] for s in sc]

    def ten_holder(self) -> int | None:
        """The seat dealt the Ten of trumps, or None (dead, no trumps, or unknown)."""
        ten = self.table.ten
        for row in self._set_hands:
            for seat, h in enumerate(row):
                if h is not None and ten in h:
                    return seat
        return None
