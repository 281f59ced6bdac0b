"""Reference engine for Catch the Ten / Scotch Whist (pure Python, standard library only).

This module is the project's slow, obviously-correct yardstick.  It is written from
``docs/rules.md`` and ``docs/formats.md`` only (the specification) and never imports the
``catchten_sim`` package, so that the two can be compared (parity tests).

Section references like "§7.3" point at docs/rules.md; "F:Errors" etc. at docs/formats.md.

Public API
----------
CARD_INDEX, parse_card, card_str          cards (index = suit * 13 + rank; S H D C; 2 .. A)
RefError                                  (field, why, detail) as in docs/formats.md "Errors in records"
ref_rules(preset, players, variants)      -> RefRules
legal_cards(rules, hand, trick, trump, ...) the legal cards at one decision point
play_hand(rules, dealer, hands, turnup, dead, choose) -> score dict (+ "play")
scripted_chooser(choices), random_chooser(rng)
random_deal(rules, dealer, rng) -> (hands, turnup, dead)
score_record(record), score_game(record), score_any(record)

Readings decided here where the texts are silent are marked "DECISION" in docstrings.
"""
from __future__ import annotations

import random as _random
from collections import Counter

# ---------------------------------------------------------------------------------------
# Cards (docs/formats.md "Cards"; DESIGN.md §3: index = suit * 13 + rank)
# ---------------------------------------------------------------------------------------

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
R2, R3, R4, R5, R6, R7, R8, R9, RT, RJ, RQ, RK, RA = range(13)

_SUIT_ALIASES = {"S": 0, "H": 1, "D": 2, "C": 3,
                 "\u2660": 0, "\u2665": 1, "\u2666": 2, "\u2663": 3,
                 "\u2664": 0, "\u2661": 1, "\u2662": 2, "\u2667": 3}


def card_str(i: int) -> str:
    """Canonical text of card index ``i`` ('TD', 'JS', '6C')."""
    return RANKS[i % 13] + SUITS[i // 13]


#: canonical card text -> index, for the full 52-card pack
CARD_INDEX = {card_str(i): i for i in range(52)}


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    return c % 13


def card(rank: int, suit: int) -> int:
    return suit * 13 + rank


class RefError(Exception):
    """A refused input: ``field`` and ``why`` as in docs/formats.md "Errors in records"."""

    def __init__(self, field: str, why: str, detail: str = ""):
        super().__init__(f"{field}: {why} ({detail})")
        self.field = field
        self.why = why
        self.detail = detail

    def as_json(self) -> dict:
        return {"kind": "error", "field": self.field, "why": self.why, "detail": self.detail}


def parse_card(s) -> int:
    """Parse one card: rank then suit, '10' for 'T', suit letters or symbols, any case.

    Raises ``RefError("card", "malformed card", ...)``; record validation re-labels the field.
    """
    if not isinstance(s, str):
        raise RefError("card", "malformed card", repr(s))
    t = s.strip().upper()
    if len(t) < 2:
        raise RefError("card", "malformed card", repr(s))
    rank_txt, suit_txt = t[:-1], t[-1]
    if rank_txt == "10":
        rank_txt = "T"
    if len(rank_txt) != 1 or rank_txt not in RANKS or suit_txt not in _SUIT_ALIASES:
        raise RefError("card", "malformed card", repr(s))
    return card(RANKS.index(rank_txt), _SUIT_ALIASES[suit_txt])


# ---------------------------------------------------------------------------------------
# Rules (docs/rules.md §1-§5, §7.7-§7.8)
# ---------------------------------------------------------------------------------------

PRESETS = ("foster", "jaques", "french52")

_BOOL = "bool"
#: §3 switches: accepted with every preset (DECISION: they modify any preset; §7.7 says
#: switches that do not apply are accepted and do nothing).
_COMMON_SWITCHES = {
    "game_at_once": _BOOL,
    "everyone_alone": _BOOL,
    "keep_six_of_spades": _BOOL,
    "revoke": ("game", "hand", "forfeit"),
    "no_trump_first_lead": _BOOL,
    "exposed_trump": _BOOL,
    "small_deal": ("sets", "whole"),
    "set_scoring": ("per_set", "per_deal"),
    "target": "int",
    "ten_of_diamonds_bonus": _BOOL,
    "card_points": ("on", "off"),
    "removed_six": ("S", "C"),
    "must_trump": _BOOL,
    "six_players": ("pairs", "triples"),
    "tie": ("count_out", "higher_total", "replay"),
}
#: §4 switches: jaques only (DECISION: named elsewhere they are "unknown variant").
_JAQUES_SWITCHES = {"six_as_three_pairs": _BOOL, "dealer_declares": _BOOL, "deck52": _BOOL}

#: count-out steps in order (§2, §7.10); names for the game output ("step")
STEPS = ("ten", "ten_of_diamonds", "cards", "ace", "king", "queen", "jack", "nine")
_STEP_OF_RANK = {RT: "ten", RA: "ace", RK: "king", RQ: "queen", RJ: "jack", R9: "nine"}


def _norm_variant(name, value):
    """Validate one switch value; returns the normalised value or raises RefError."""
    kind = _COMMON_SWITCHES.get(name, _JAQUES_SWITCHES.get(name))
    bad = RefError("variants", "bad variant value", f"{name}={value!r}")
    if kind == _BOOL:
        if not isinstance(value, bool):
            raise bad
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad
        return value
    if name == "card_points" and isinstance(value, bool):
        return "on" if value else "off"
    if not isinstance(value, str):
        raise bad
    for allowed in kind:
        if value.lower() == allowed.lower():
            return allowed
    raise bad


class RefRules:
    """Resolved rules for one preset, player count and set of switches.

    Attributes are plain Python values; see ``ref_rules`` for how they are derived.
    """

    def __repr__(self):
        return f"RefRules({self.preset!r}, players={self.n_players}, variants={self.variants!r})"

    # -- seating ----------------------------------------------------------------------
    def seats_of(self, side: int) -> list:
        return [s for s in range(self.n_players) if self.side_of_seat[s] == side]

    def share(self, side: int) -> int:
        """Card-point share of ``side`` for one scoring unit (§2 "card points"; §3 set_scoring).

        = cards dealt to the side for the unit: a six-card set per seat with per-set
        scoring, else the whole deal.
        """
        per_seat = self.set_size if (self.sets > 1 and self.set_scoring == "per_set") else self.cards_per_player
        return per_seat * len(self.seats_of(side))

    # -- trumps and honours -------------------------------------------------------------
    def trump_order(self, trump_suit):
        """Cards of the trump suit in this deck, best first (§2 foster, §4 jaques, §5 french52)."""
        if trump_suit is None:
            return []
        ranks = self.trump_rank_order
        return [card(r, trump_suit) for r in ranks if card(r, trump_suit) in self.deck_set]

    def trick_power(self, c: int, led_suit: int, trump_suit) -> int:
        """Strength of card ``c`` in a trick led in ``led_suit`` (§1): trumps beat the led suit,
        other suits never win.  Larger is stronger; 0 cannot win."""
        s = suit_of(c)
        if trump_suit is not None and s == trump_suit:
            return 100 + (len(self.trump_rank_order) - self.trump_rank_order.index(rank_of(c)))
        if s == led_suit:
            return 1 + rank_of(c)  # natural order A K Q J 10 9 ... (§1)
        return 0

    def honour_parts(self, c: int, trump_suit) -> dict:
        """Points card ``c`` scores when taken, split by count-out step (§2, §3, §4, §5, §7.2).

        The 10♦ bonus is 10 extra unless diamonds are trumps (then only the trump Ten).
        With no trumps (jaques ``dealer_declares``) A K Q J 10 of every suit score.
        """
        parts = {}
        r, s = rank_of(c), suit_of(c)
        if (trump_suit is None or s == trump_suit) and r in self.honours:
            if not (trump_suit is None and r == R9):
                parts[_STEP_OF_RANK[r]] = self.honours[r]
        if self.ten_of_diamonds_bonus and c == card(RT, DIAMONDS) and trump_suit != DIAMONDS:
            parts["ten_of_diamonds"] = 10
        return parts

    def honour_value(self, c: int, trump_suit) -> int:
        return sum(self.honour_parts(c, trump_suit).values())

    def honours_total(self, trump_suit) -> int:
        """All honour points in the deck (30 foster, 23 jaques; +10 for a non-trump 10♦ bonus)."""
        return sum(self.honour_value(c, trump_suit) for c in self.deck)


def ref_rules(preset: str = "foster", players: int = 4, variants: dict | None = None) -> RefRules:
    """Resolve a preset + switches + player count into ``RefRules`` (docs/rules.md §1-§5, §7.7-§7.8).

    Checking order (end of docs/rules.md): rules, variants, players.
    Raises RefError(field, why, detail) with field in {rules, variants, players}.
    """
    if preset is None:
        preset = "foster"
    if not isinstance(preset, str) or preset.lower() not in PRESETS:
        raise RefError("rules", "unknown preset", repr(preset))
    preset = preset.lower()
    if variants is None:
        variants = {}
    if not isinstance(variants, dict):
        raise RefError("variants", "bad variant value", repr(variants))
    allowed = dict(_COMMON_SWITCHES)
    if preset == "jaques":
        allowed.update(_JAQUES_SWITCHES)
    v = {}
    for name, value in variants.items():
        if name not in allowed:
            raise RefError("variants", "unknown variant", f"{name} with {preset}")
        v[name] = _norm_variant(name, value)

    R = RefRules()
    R.preset = preset
    R.variants = dict(v)

    # preset defaults (§2, §4, §5)
    if preset == "foster":
        R.trump_rank_order = [RJ, RA, RK, RQ, RT, R9, R8, R7, R6]
        R.honours = {RJ: 11, RT: 10, RA: 4, RK: 3, RQ: 2}
        R.card_points = True
        R.target = 41
        R.revoke = "game"
        R.tie = "count_out"
        R.ten_of_diamonds_bonus = False
        full52 = False
    elif preset == "jaques":
        # §4: J 10 A K Q 9 8 7 6; deck52 extends downwards (DECISION) with 5 4 3 2.
        R.trump_rank_order = [RJ, RT, RA, RK, RQ, R9, R8, R7, R6, R5, R4, R3, R2]
        R.honours = {RJ: 3, RT: 10, RA: 4, RK: 3, RQ: 2, R9: 1}
        R.card_points = False
        R.target = 41  # DECISION: 004 "reaches or exceeds 41"
        R.revoke = "forfeit"
        R.tie = "higher_total"  # §7.11
        R.ten_of_diamonds_bonus = False
        full52 = bool(v.get("deck52", False))
    else:  # french52 (§5)
        R.trump_rank_order = [RJ, RA, RK, RQ, RT, R9, R8, R7, R6, R5, R4, R3, R2]
        R.honours = {RJ: 11, RT: 10, RA: 4, RK: 3, RQ: 2}
        R.card_points = False
        R.target = 40
        R.revoke = "game"  # §7.8
        R.tie = "count_out"  # §7.8
        R.ten_of_diamonds_bonus = True
        full52 = True
    if not full52:
        R.trump_rank_order = [r for r in R.trump_rank_order if r >= R6]

    # switches (§3)
    R.game_at_once = v.get("game_at_once", False)
    R.everyone_alone = v.get("everyone_alone", False)
    R.keep_six_of_spades = v.get("keep_six_of_spades", False)
    R.revoke = v.get("revoke", R.revoke)
    R.no_trump_first_lead = v.get("no_trump_first_lead", False)
    R.exposed_trump = v.get("exposed_trump", False)
    R.small_deal = v.get("small_deal", "sets")
    R.set_scoring = v.get("set_scoring", "per_set")
    R.target = v.get("target", R.target)
    R.ten_of_diamonds_bonus = v.get("ten_of_diamonds_bonus", R.ten_of_diamonds_bonus)
    if "card_points" in v:
        R.card_points = v["card_points"] == "on"
    R.removed_six = v.get("removed_six", "S")
    R.must_trump = v.get("must_trump", False)
    R.tie = v.get("tie", R.tie)
    R.dealer_declares = v.get("dealer_declares", False)
    R.deck52 = v.get("deck52", False)
    if R.game_at_once and R.revoke in ("hand", "forfeit"):  # §7.4
        raise RefError("variants", "bad variant value",
                       f"game_at_once with revoke={R.revoke} is not supported")
    six_players = v.get("six_players", "triples" if preset == "jaques" else "pairs")
    if preset == "jaques" and "six_as_three_pairs" in v and "six_players" in v and \
            v["six_as_three_pairs"] != (v["six_players"] == "pairs"):
        raise RefError("variants", "bad variant value",
                       f"six_as_three_pairs={v['six_as_three_pairs']} contradicts "
                       f"six_players={v['six_players']!r}")
    if preset == "jaques" and v.get("six_as_three_pairs", False):
        six_players = "pairs"
    R.six_players = six_players
    R.six_as_three_pairs = preset == "jaques" and six_players == "pairs"

    # players (§2 table, §4, §5, §7.8)
    if isinstance(players, bool) or not isinstance(players, int):
        raise RefError("players", "players out of range", f"{players!r} players with {preset}")
    if preset == "foster":
        ok = 2 <= players <= 8
    elif preset == "jaques":
        ok = players in ((4,) if R.deck52 else (4, 6))
    else:
        ok = players == 4
    if not ok:
        raise RefError("players", "players out of range", f"{players} players with {preset}")
    n = players
    R.n_players = n

    # deck (§1, §2 table, §3 keep_six_of_spades / removed_six)
    if full52:
        deck = list(range(52))
    else:
        deck = [card(r, s) for s in range(4) for r in range(R6, RA + 1)]
    R.dead_count = 0
    if preset == "foster" and n in (5, 7):
        if R.keep_six_of_spades:
            R.dead_count = 1
        else:
            removed = card(R6, SPADES if R.removed_six == "S" else CLUBS)
            deck.remove(removed)
    if preset == "foster" and n == 8:
        deck = [c for c in deck if rank_of(c) != R6]
    R.deck = sorted(deck)
    R.deck_set = frozenset(deck)
    R.cards_dealt = len(deck) - R.dead_count
    R.cards_per_player = R.cards_dealt // n
    assert R.cards_per_player * n == R.cards_dealt

    # sets (§2 2/3 players, §3 small_deal, §7.5)
    R.sets = 1
    if n in (2, 3) and R.small_deal == "sets":
        R.sets = R.cards_per_player // 6
    R.set_size = R.cards_per_player // R.sets
    R.n_tricks = R.cards_per_player

    # sides (§2 table, §3 everyone_alone / six_players, §4, §7.8; FORMATS "Cards")
    if R.everyone_alone or n in (2, 3, 5, 7):
        n_sides = n
    elif n == 4:
        n_sides = 2
    elif n == 6:
        n_sides = 3 if R.six_players == "pairs" else 2
    else:  # 8
        n_sides = 4
    R.n_sides = n_sides
    R.side_of_seat = [s % n_sides for s in range(n)]
    return R


def _rules_of(record: dict) -> RefRules:
    rules = record.get("rules", "foster")
    variants = record.get("variants", {})
    if variants is None:
        variants = {}
    if "players" not in record:
        raise RefError("players", "players out of range", "players missing")
    r = ref_rules(rules, record["players"], variants)
    if r.dealer_declares:  # §7.8: no field for the declaration in a record
        raise RefError("variants", "bad variant value",
                       "dealer_declares=true cannot be written in a record")
    return r


# ---------------------------------------------------------------------------------------
# Play (§1, §3 no_trump_first_lead / exposed_trump / must_trump, §7.6)
# ---------------------------------------------------------------------------------------

def trick_winner(rules: RefRules, leader: int, cards: list, trump_suit) -> int:
    """Seat that wins a trick (§1): highest trump, else highest card of the led suit."""
    led = suit_of(cards[0])
    best = max(range(len(cards)), key=lambda k: rules.trick_power(cards[k], led, trump_suit))
    return (leader + best) % rules.n_players


def legal_cards(rules: RefRules, hand, trick_so_far, trump_suit, *, first_lead_of_set=False,
                locked=None) -> list:
    """Cards the player to move may play, sorted by index.

    hand: the player's current cards (with sets: of the current set); trick_so_far: cards
    already in the trick; locked: an exposed turn-up that may not yet be played (§3
    exposed_trump, §7.6), or None.

    - §1 follow suit if able; §3 must_trump: void in the led suit, must trump if able.
    - §3/§7.6 no_trump_first_lead: the first lead of each set may not be a trump unless the
      leader's current hand is all trumps.
    - the locked turn-up never counts as "holding" a suit (§7.3).
    """
    cand = sorted(c for c in hand if c != locked)
    if not trick_so_far:
        if (first_lead_of_set and rules.no_trump_first_lead and trump_suit is not None
                and any(suit_of(c) != trump_suit for c in hand)):
            cand = [c for c in cand if suit_of(c) != trump_suit]
        return cand
    led = suit_of(trick_so_far[0])
    follow = [c for c in cand if suit_of(c) == led]
    if follow:
        return follow
    if rules.must_trump and trump_suit is not None:
        trumps = [c for c in cand if suit_of(c) == trump_suit]
        if trumps:
            return trumps
    return cand


class _Deal:
    """State of one deal being played: current sets in hand, trick, leader, history.

    Sets (§2 2/3 players, §7.5): hands[seat][6k:6k+6] is set k+1; the eldest leads set 1,
    the winner of the last trick of a set leads the next; tricks are numbered over the deal.
    """

    def __init__(self, rules: RefRules, dealer: int, hands, turnup: int, trumps="turnup"):
        self.r = rules
        self.n = rules.n_players
        self.dealer = dealer
        self.hands = [list(h) for h in hands]
        self.turnup = turnup
        self.trump = suit_of(turnup) if trumps == "turnup" else trumps
        self.trick_index = 0
        self.leader = (dealer + 1) % self.n  # eldest hand (§1)
        self.trick = []
        self.tricks = []  # dicts: leader, cards, winner, set
        self.played = []
        self.played_set = set()
        self.revoke = None
        self._load_set()

    # -- helpers
    def cur_set(self) -> int:
        return self.trick_index // self.r.set_size + 1

    def _load_set(self):
        k = self.trick_index // self.r.set_size
        sz = self.r.set_size
        self.held = [list(h[k * sz:(k + 1) * sz]) for h in self.hands]

    def done(self) -> bool:
        return self.trick_index >= self.r.n_tricks

    def to_play(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def first_lead_of_set(self) -> bool:
        return not self.trick and self.trick_index % self.r.set_size == 0

    def locked(self, seat):
        """The exposed turn-up while it may not be played (§3 exposed_trump, §7.6)."""
        if (self.r.exposed_trump and seat == self.dealer and self.turnup in self.held[seat]
                and self.trick_index < self.r.n_tricks - 2):
            return self.turnup
        return None

    def legal(self) -> list:
        seat = self.to_play()
        return legal_cards(self.r, self.held[seat], self.trick, self.trump,
                           first_lead_of_set=self.first_lead_of_set(), locked=self.locked(seat))

    def check_and_play(self, c: int, pos: int):
        """Play card ``c`` as the ``pos``-th card of the record, checking it in the order of
        docs/rules.md (end): played twice, not in hand, exposed trump, trump led first, revoke."""
        seat = self.to_play()
        where = f"play[{pos}]={card_str(c)}"
        if c in self.played_set:
            raise RefError("play", "card played twice", where)
        if c not in self.held[seat]:
            raise RefError("play", "card not in hand", f"{where} by seat {seat}")
        lk = self.locked(seat)
        if lk is not None and c == lk:
            raise RefError("play", "exposed trump played early",
                           f"{where} in trick {self.trick_index}")
        hand = self.held[seat]
        if (self.first_lead_of_set() and self.r.no_trump_first_lead and self.trump is not None
                and suit_of(c) == self.trump and any(suit_of(x) != self.trump for x in hand)):
            raise RefError("play", "trump led first", where)
        if self.revoke is None and self.trick:
            holdable = [x for x in hand if x != lk]
            led = suit_of(self.trick[0])
            revoked = False
            if suit_of(c) != led:
                if any(suit_of(x) == led for x in holdable):
                    revoked = True  # §7.3, FORMATS "revoke"
                elif (self.r.must_trump and self.trump is not None and suit_of(c) != self.trump
                      and any(suit_of(x) == self.trump for x in holdable)):
                    revoked = True  # DECISION: breaking must_trump is a revoke too
            if revoked:
                self.revoke = {"seat": seat, "trick": self.trick_index, "card": card_str(c),
                               "penalty": self.r.revoke}
                if self.r.sets > 1:
                    self.revoke["set"] = self.cur_set()
        self.play(c)

    def play(self, c: int):
        seat = self.to_play()
        self.held[seat].remove(c)
        self.trick.append(c)
        self.played.append(c)
        self.played_set.add(c)
        if len(self.trick) == self.n:
            w = trick_winner(self.r, self.leader, self.trick, self.trump)
            self.tricks.append({"leader": self.leader, "cards": list(self.trick), "winner": w,
                                "set": self.cur_set()})
            self.trick = []
            self.leader = w
            self.trick_index += 1
            if not self.done() and self.trick_index % self.r.set_size == 0:
                self._load_set()


# ---------------------------------------------------------------------------------------
# Scoring one deal as ledgers (§2, §6, §7.1-§7.7)
#
# A *ledger* is a Counter {count-out step: points} of one side in one scoring unit (the
# card points are the step "cards").  Everything a hand scores is read off its ledgers; a
# revoke penalty rewrites the ledgers of the unit where the revoke happened.  (This is
# deliberately not the shape of catchten_sim/records.py, so that the two can disagree.)
# ---------------------------------------------------------------------------------------

def card_points(cards_taken: int, share: int) -> int:
    """§2: one point per card taken above the share; §7.1 max(0, taken - share)."""
    return max(0, cards_taken - share)


def _ledgers(rules: RefRules, tricks: list, trump, n_units: int, unit_of) -> tuple:
    """(ledgers, taken): ``ledgers[u][side]`` a Counter of points by step, ``taken[u][side]``
    the cards taken, from the completed ``tricks``; ``unit_of(trick)`` names the unit."""
    ledgers = [[Counter() for _ in range(rules.n_sides)] for _ in range(n_units)]
    taken = [[0] * rules.n_sides for _ in range(n_units)]
    for t in tricks:
        u = unit_of(t)
        side = rules.side_of_seat[t["winner"]]
        taken[u][side] += len(t["cards"])
        for c in t["cards"]:
            ledgers[u][side].update(rules.honour_parts(c, trump))
    if rules.card_points:
        for u in range(n_units):
            for side in range(rules.n_sides):
                ledgers[u][side]["cards"] = card_points(taken[u][side], rules.share(side))
    return ledgers, taken


def _honours_of(ledger: Counter) -> int:
    return sum(p for step, p in ledger.items() if step != "cards")


def _unit_scores(rules: RefRules, tricks: list, trump) -> list:
    """Each side's honours, cards taken, card points and total from one unit's ``tricks``
    (``steps``: the total by count-out step)."""
    (ledger,), (taken,) = _ledgers(rules, tricks, trump, 1, lambda t: 0)
    return [{"honours": _honours_of(ledger[s]), "cards_taken": taken[s],
             "card_points": ledger[s]["cards"], "total": sum(ledger[s].values()),
             "steps": {k: ledger[s][k] for k in STEPS}} for s in range(rules.n_sides)]


def _penalise(rules: RefRules, unit: list, revoker: int) -> dict:
    """§3 revoke, §7.3-§7.4: rewrite one unit's ledgers (a list by side) for a revoke by
    side ``revoker``; return ``revoke.effect``.

    game: nothing changes (the revoker loses the game).  hand: the revoker's ledger is
    emptied.  forfeit: it is also added to every other side's ledger (§7.4: each opposing
    side scores the revoker's points).
    """
    if rules.revoke == "game":
        return {"loses_game": revoker}
    lost = unit[revoker]
    points = sum(lost.values())
    unit[revoker] = Counter()
    effect = {"side": revoker, "points_lost": points}
    if rules.revoke == "forfeit":
        others = [s for s in range(rules.n_sides) if s != revoker]
        for s in others:
            unit[s] = unit[s] + lost
        effect["points_to"] = {str(s): points for s in others}
    return effect


def _score_deal(rules: RefRules, dealer: int, hands, turnup: int, dead, deal: _Deal) -> dict:
    """Build the docs/formats.md "Score output" for a played (possibly partial) deal.

    Private keys (removed by ``_public``) carry what a game needs: ``_units`` (per unit:
    its set number, its tricks, whether it is complete, its ledgers after any penalty).
    """
    trump = deal.trump
    per_set = rules.sets > 1 and rules.set_scoring == "per_set"
    n_units = rules.sets if per_set else 1
    made, taken = _ledgers(rules, deal.tricks, trump, n_units,
                           (lambda t: t["set"] - 1) if per_set else (lambda t: 0))
    final = [[Counter(x) for x in unit] for unit in made]
    revoke = dict(deal.revoke) if deal.revoke else None
    if revoke:
        revoke["side"] = rules.side_of_seat[revoke["seat"]]
        u = revoke["set"] - 1 if per_set else 0        # §7.4: the set where it happened
        revoke["effect"] = _penalise(rules, final[u], revoke["side"])
    shows_made = revoke is not None and rules.revoke != "game"

    def side_line(side, units):
        d = {"honours": sum(_honours_of(made[u][side]) for u in units),
             "cards_taken": sum(taken[u][side] for u in units),
             "card_points": sum(made[u][side]["cards"] for u in units),
             "total": sum(sum(final[u][side].values()) for u in units)}
        if shows_made:
            d["made"] = sum(sum(made[u][side].values()) for u in units)
        return d

    out = {
        "finished": len(deal.tricks) == rules.n_tricks,
        "trumps": SUITS[trump] if trump is not None else None,
        "tricks": [],
        "sides": [dict({"side": s, "seats": rules.seats_of(s)}, **side_line(s, range(n_units)))
                  for s in range(rules.n_sides)],
        "ten": _ten_fate(rules, hands, deal.tricks, trump),
        "revoke": revoke,
    }
    for t in deal.tricks:
        td = {"leader": t["leader"], "cards": [card_str(c) for c in t["cards"]],
              "winner": t["winner"]}
        if rules.sets > 1:
            td["set"] = t["set"]
        out["tricks"].append(td)
    if rules.sets > 1:
        out["sets"] = []
        if not per_set:     # §7.5: honours and cards per set only
            by_set, set_taken = _ledgers(rules, deal.tricks, trump, rules.sets,
                                         lambda t: t["set"] - 1)
        for k in range(rules.sets):
            if per_set:
                lines = []
                for s in range(rules.n_sides):
                    d = {"side": s, **side_line(s, [k])}
                    if shows_made and revoke["set"] - 1 != k:
                        del d["made"]          # "made" only where the penalty hit
                    lines.append(d)
            else:
                lines = [{"side": s, "honours": _honours_of(by_set[k][s]),
                          "cards_taken": set_taken[k][s], "card_points": None, "total": None}
                         for s in range(rules.n_sides)]
            out["sets"].append({"set": k + 1, "sides": lines, "finished":
                                sum(1 for t in deal.tricks if t["set"] == k + 1) == rules.set_size})
    size = rules.set_size if per_set else rules.n_tricks
    out["_units"] = []
    for u in range(n_units):
        ts = [(i, t) for i, t in enumerate(deal.tricks) if not per_set or t["set"] == u + 1]
        out["_units"].append({"set": u + 1 if per_set else rules.sets, "tricks": ts,
                              "complete": len(ts) == size, "last_trick": (u + 1) * size - 1,
                              "ledgers": final[u]})
    return out


def _ten_fate(rules: RefRules, hands, tricks: list, trump) -> dict:
    """§6: who was dealt the Ten of trumps, who took it, caught or saved (§7.1: null while
    it is dead or not yet taken)."""
    ten = card(RT, trump) if trump is not None else None
    holder = next((s for s, h in enumerate(hands) if ten in h), None)
    taken_by = next((t["winner"] for t in tricks if ten in t["cards"]), None)
    caught = None
    if holder is not None and taken_by is not None:
        caught = rules.side_of_seat[taken_by] != rules.side_of_seat[holder]
    return {"holder": holder, "taken_by": taken_by, "caught": caught}


def _public(out: dict) -> dict:
    return {k: v for k, v in out.items() if not k.startswith("_")}


# ---------------------------------------------------------------------------------------
# Dealing and playing (§1 deal, §2 sets, §3 keep_six_of_spades)
# ---------------------------------------------------------------------------------------

def random_deal(rules: RefRules, dealer: int, rng: _random.Random):
    """Shuffle uniformly and deal one card at a time clockwise from the dealer's left (§1).

    With sets, each six-card set is dealt in turn (§2); hands[seat] lists the seat's cards
    in set order.  The last card dealt (the dealer's) is the turn-up.  keep_six_of_spades:
    35 cards are dealt and the 36th is the dead card (§3, §7.7).
    """
    deck = list(rules.deck)
    rng.shuffle(deck)
    n = rules.n_players
    hands = [[] for _ in range(n)]
    pos = 0
    for _ in range(rules.sets):
        for _ in range(rules.set_size):
            for k in range(n):
                seat = (dealer + 1 + k) % n
                hands[seat].append(deck[pos])
                pos += 1
    dead = deck[pos:]
    assert len(dead) == rules.dead_count
    turnup = hands[dealer][-1]
    return hands, turnup, dead


def scripted_chooser(choices):
    """choose() that at its k-th call picks legal[choices[k] % len(legal)].

    ``play_hand`` calls choose once for every card played, even a forced one.
    """
    it = iter(list(choices))

    def choose(seat, legal, trick_so_far, info):
        return next(it) % len(legal)

    return choose


def random_chooser(rng: _random.Random):
    """choose() uniform among the legal cards."""

    def choose(seat, legal, trick_so_far, info):
        return rng.randrange(len(legal))

    return choose


def play_hand(rules: RefRules, dealer: int, hands, turnup: int, dead, choose, *,
              trumps="turnup") -> dict:
    """Play a whole deal (all sets) choosing only legal cards; return the score output.

    choose(seat, legal, trick_so_far, info) -> index into ``legal`` (sorted ascending).
    info: trick_index, set, leader, dealer, trumps, hand (current cards), played (so far).
    ``trumps``: with jaques dealer_declares only, a suit index or None for no trumps.
    The result is also re-checked by ``score_record`` style validation of the deal.
    """
    if trumps != "turnup" and not rules.dealer_declares:
        raise ValueError("trumps may only be declared with dealer_declares")
    hands = [list(h) for h in hands]
    _validate_deal(rules, dealer, hands, list(dead), turnup)
    deal = _Deal(rules, dealer, hands, turnup, trumps)
    while not deal.done():
        seat = deal.to_play()
        legal = deal.legal()
        info = {"trick_index": deal.trick_index, "set": deal.cur_set(), "leader": deal.leader,
                "dealer": dealer, "trumps": deal.trump, "hand": sorted(deal.held[seat]),
                "played": list(deal.played)}
        k = choose(seat, list(legal), list(deal.trick), info)
        if not isinstance(k, int) or not 0 <= k < len(legal):
            raise ValueError(f"choose returned {k!r} for {len(legal)} legal cards")
        deal.check_and_play(legal[k], len(deal.played))
        assert deal.revoke is None
    out = _public(_score_deal(rules, dealer, hands, turnup, dead, deal))
    out["play"] = [card_str(c) for c in deal.played]
    return out


# ---------------------------------------------------------------------------------------
# Records (docs/formats.md "Hand record"; docs/rules.md checking order)
# ---------------------------------------------------------------------------------------

def _validate_deal(rules: RefRules, dealer, hands, dead, turnup):
    """Checks on already-parsed cards: deck, duplicates, counts, dead count, turn-up."""
    for i, h in enumerate(hands):
        for j, c in enumerate(h):
            if c not in rules.deck_set:
                raise RefError("hands", "card not in deck",
                               f"hands[{i}][{j}]={card_str(c)} with {rules.preset}, {rules.n_players} players")
    for j, c in enumerate(dead):
        if c not in rules.deck_set:
            raise RefError("dead", "card not in deck", f"dead[{j}]={card_str(c)}")
    seen = set()
    for i, h in enumerate(hands):
        for j, c in enumerate(h):
            if c in seen:
                raise RefError("hands", "duplicate card", f"hands[{i}][{j}]={card_str(c)}")
            seen.add(c)
    for j, c in enumerate(dead):
        if c in seen:
            raise RefError("dead", "duplicate card", f"dead[{j}]={card_str(c)}")
        seen.add(c)
    for i, h in enumerate(hands):
        if len(h) != rules.cards_per_player:
            raise RefError("hands", "wrong number of cards",
                           f"hands[{i}] has {len(h)}, expected {rules.cards_per_player}")
    if len(dead) != rules.dead_count:
        raise RefError("dead", "wrong number of cards",
                       f"dead has {len(dead)}, expected {rules.dead_count}")
    if turnup != hands[dealer][-1]:
        raise RefError("turnup", "turnup not dealer's last card",
                       f"turnup {card_str(turnup)}, dealer {dealer} last card {card_str(hands[dealer][-1])}")


def _parse_hand_record(record: dict, rules: RefRules):
    """Validate a hand record up to the play (checking order, end of docs/rules.md).

    DECISIONS: a missing ``turnup`` means the dealer's last card; missing ``dead``/``play``
    are empty; a bad ``dealer`` is reported as field "dealer", why "players out of range"
    (the closest word of docs/formats.md's list).
    """
    n = rules.n_players
    dealer = record.get("dealer")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise RefError("dealer", "players out of range", f"dealer {dealer!r} with {n} players")
    raw_hands = record.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != n:
        got = len(raw_hands) if isinstance(raw_hands, list) else raw_hands
        raise RefError("hands", "wrong number of hands", f"{got!r} hands for {n} players")
    raw_dead = record.get("dead")
    if raw_dead is None:
        raw_dead = []
    if not isinstance(raw_dead, list):
        raise RefError("dead", "wrong number of cards", f"dead is {raw_dead!r}")
    hands = []
    for i, h in enumerate(raw_hands):
        if not isinstance(h, list):
            raise RefError("hands", "wrong number of cards", f"hands[{i}] is not a list")
        row = []
        for j, s in enumerate(h):
            try:
                row.append(parse_card(s))
            except RefError:
                raise RefError("hands", "malformed card", f"hands[{i}][{j}]={s!r}") from None
        hands.append(row)
    dead = []
    for j, s in enumerate(raw_dead):
        try:
            dead.append(parse_card(s))
        except RefError:
            raise RefError("dead", "malformed card", f"dead[{j}]={s!r}") from None
    # deck, duplicates, counts, dead count (turn-up handled below, after parsing it)
    raw_turnup = record.get("turnup")
    try:
        _validate_deal(rules, dealer, hands, dead, hands[dealer][-1] if hands[dealer] else -1)
    except RefError as e:
        if e.why != "turnup not dealer's last card":
            raise
    if raw_turnup is None:
        turnup = hands[dealer][-1]
    else:
        try:
            turnup = parse_card(raw_turnup)
        except RefError:
            raise RefError("turnup", "malformed card", f"turnup={raw_turnup!r}") from None
        if turnup != hands[dealer][-1]:
            raise RefError("turnup", "turnup not dealer's last card",
                           f"turnup {card_str(turnup)}, dealer {dealer}'s last card is {card_str(hands[dealer][-1])}")
    play = record.get("play")
    if play is None:
        play = []
    if not isinstance(play, list):
        raise RefError("play", "malformed card", f"play is {play!r}")
    if len(play) > rules.cards_dealt:
        raise RefError("play", "play longer than deal", f"{len(play)} cards, {rules.cards_dealt} dealt")
    return dealer, hands, dead, turnup, play


def _play_record(rules: RefRules, dealer, hands, turnup, play) -> _Deal:
    deal = _Deal(rules, dealer, hands, turnup)
    for pos, s in enumerate(play):
        try:
            c = parse_card(s)
        except RefError:
            raise RefError("play", "malformed card", f"play[{pos}]={s!r}") from None
        deal.check_and_play(c, pos)
    return deal


def _score_hand_internal(record: dict, rules: RefRules) -> dict:
    dealer, hands, dead, turnup, play = _parse_hand_record(record, rules)
    deal = _play_record(rules, dealer, hands, turnup, play)
    return _score_deal(rules, dealer, hands, turnup, dead, deal)


def score_record(record: dict) -> dict:
    """Validate and score one hand record (docs/formats.md "Hand record" -> "Score output").

    Raises RefError for the first fault in the checking order at the end of docs/rules.md.
    A revoke is not an error: it is reported in ``revoke`` and penalised (§7.3-§7.5).
    """
    if not isinstance(record, dict):
        raise RefError("hands", "wrong number of hands", "record is not an object")
    rules = _rules_of(record)
    return _public(_score_hand_internal(record, rules))


# ---------------------------------------------------------------------------------------
# Games: a plain simulation of the scoreboard (§2 target / count-out, §3 game_at_once /
# tie, §7.9-§7.14).  Points arrive on the board moment by moment (a trick's honours with
# game_at_once, else a whole scoring unit at its end); after each arrival the board asks
# whether somebody has won.
# ---------------------------------------------------------------------------------------

def _count_out(rules: RefRules, before: list, steps_by_side: list, after: list, order=STEPS):
    """§7.10: from ``before`` add the unit's points step by step in ``order``; the first side
    to reach the target wins.  Several at one step: fewer points needed at that step, then
    the higher final total, then (DECISION) the lower side number.  Returns (side, step) or
    None."""
    board = list(before)
    for step in order:
        crossing = []
        for side in range(rules.n_sides):
            new = board[side] + steps_by_side[side][step]
            if board[side] < rules.target <= new:
                crossing.append((rules.target - board[side], -after[side], side))
            board[side] = new
        if crossing:
            return min(crossing)[2], step
    return None


class _Board:
    """The scoreboard of one game: each side's score, whether a tie is being replayed, and
    the result once somebody has won."""

    def __init__(self, rules: RefRules):
        self.r = rules
        self.score = [0] * rules.n_sides
        self.replaying = False
        self.result = None

    def won(self, side, how, step, hand, where, **extra):
        self.result = dict({"winner": side, "how": how, "step": step, "hand": hand}, **where,
                           **extra)

    def over(self) -> list:
        return [s for s in range(self.r.n_sides) if self.score[s] >= self.r.target]  # §7.9

    def several_over(self, hand, where):
        """§3 tie = higher_total / replay, §7.11: the higher total among the sides over the
        target; equal totals (or, with replay, the first time at all): another hand."""
        if self.r.tie == "replay" and not self.replaying:
            self.replaying = True     # DECISION: "always play another hand" the first time
            return
        over = self.over()
        best = max(self.score[s] for s in over)
        top = [s for s in over if self.score[s] == best]
        if len(top) == 1:
            self.won(top[0], "higher_total", None, hand, where)
        else:
            self.replaying = True

    def revoker_loses(self, loser, hand, where):
        """§7.4 / §7.12: the revoker loses; the best score among the others wins (DECISION:
        the lower side number on equal scores)."""
        ranking = sorted((s for s in range(self.r.n_sides) if s != loser),
                         key=lambda s: (-self.score[s], s))
        self.won(ranking[0], "revoke", None, hand, where, loser=loser)


def _where(rules: RefRules, set_no: int, trick: int) -> dict:
    w = {}
    if rules.sets > 1:
        w["set"] = set_no
    if rules.sets > 1 or rules.game_at_once:
        w["trick"] = trick
    return w


def _play_unit_on_board(board: _Board, rules: RefRules, unit: dict, revoke, trump, k: int):
    """Put one scoring unit's points on the board; returns False when the hand stops here
    (the unit is unfinished, or the game is won)."""
    target = rules.target
    ledgers = unit["ledgers"]
    revoke_here = (revoke is not None and rules.revoke == "game"
                   and (rules.set_scoring != "per_set" or rules.sets == 1
                        or revoke.get("set") == unit["set"]))
    start = list(board.score)
    if rules.game_at_once:
        # §7.13: a trick's honours arrive when it is taken.  DECISION: from the revoking
        # trick on, nothing is won at once; the revoke decides at the end of the unit.
        for i, t in unit["tricks"]:
            if revoke_here and i >= revoke["trick"]:
                break
            side = rules.side_of_seat[t["winner"]]
            board.score[side] += sum(rules.honour_value(c, trump) for c in t["cards"])
            if board.score[side] >= target:
                board.won(side, "reached", None, k, _where(rules, t["set"], i))
                return False
    if not unit["complete"]:
        board.score = start       # §7.14: an unfinished unit adds nothing
        return False
    board.score = [start[s] + sum(ledgers[s].values()) for s in range(rules.n_sides)]
    where = _where(rules, unit["set"], unit["last_trick"])
    if revoke_here:
        board.revoker_loses(revoke["side"], k, where)
        return False
    if rules.game_at_once:
        # only the card points arrived at the end (§7.13): who crossed with them?
        before_cards = [start[s] + _honours_of(ledgers[s]) for s in range(rules.n_sides)]
        crossed = [s for s in range(rules.n_sides)
                   if before_cards[s] < target <= board.score[s]]
        if len(crossed) == 1:
            board.won(crossed[0], "reached", None, k, where)
        elif len(crossed) > 1 and rules.tie == "count_out":
            # DECISION: separated as §7.10 separates sides at one step
            side, step = _count_out(rules, before_cards, ledgers, board.score, ("cards",))
            board.won(side, "count_out", step, k, where)
        elif crossed:
            board.several_over(k, where)
        elif len(board.over()) == 1:  # a side over the target since a tie was replayed
            board.won(board.over()[0], "reached", None, k, where)
        elif board.over():
            board.several_over(k, where)
        return board.result is None
    over = board.over()
    if len(over) == 1:
        board.won(over[0], "reached", None, k, where)
    elif len(over) > 1 and rules.tie == "count_out":
        side, step = _count_out(rules, start, ledgers, board.score)
        board.won(side, "count_out", step, k, where)
    elif over:
        board.several_over(k, where)
    return board.result is None


def _same_as_game(record: dict, rules: RefRules, hand: dict, k: int) -> dict:
    """§7.14: a hand of a game record may leave out rules/variants/players (inherited); if
    given they must equal the game's."""
    hr = dict(hand)
    for key, why in (("rules", "unknown preset"), ("variants", "bad variant value"),
                     ("players", "players out of range")):
        if key in hr and hr[key] is not None:
            mine = hr[key]
            theirs = record.get(key, {"rules": "foster", "variants": {}}.get(key))
            if key == "rules" and isinstance(mine, str) and isinstance(theirs, str):
                same = mine.lower() == theirs.lower()
            elif key == "variants":
                same = (ref_rules(record.get("rules", "foster"), record["players"],
                                  mine or {}).variants == rules.variants) \
                    if isinstance(mine, dict) else False
            else:
                same = mine == theirs
            if not same:
                raise RefError(key, why, f"hands[{k}].{key}={mine!r} differs from the game's {theirs!r}")
        hr[key] = record.get(key)
    if hr.get("variants") is None:
        hr["variants"] = {}
    if hr.get("rules") is None:
        hr["rules"] = "foster"
    return hr


def score_game(record: dict) -> dict:
    """Score a game record (docs/formats.md "Game record" -> "Game score output").

    - §7.9 target reached means total >= target; with per-set scoring checked after each set.
    - §7.10 count-out / §7.11 higher total / §3 tie.
    - §7.12 a revoke with penalty game ends the game after its hand (or set); the hand's
      points still count.
    - §7.13 game_at_once: honours count when their trick is taken, card points at the end of
      the unit; ``running``'s last row is the score at the win; ``trick`` names the trick.
    - §7.14 an unfinished scoring unit adds nothing (DECISION: completed sets of a partial
      hand with per-set scoring do count, and a game_at_once win inside completed tricks
      stands, because a game record naturally stops at the win).  Hands after the game was
      decided: RefError("hands", "hands after game end").
    """
    if not isinstance(record, dict):
        raise RefError("hands", "wrong number of hands", "record is not an object")
    rules = _rules_of(record)
    hands_in = record.get("hands")
    if not isinstance(hands_in, list):
        raise RefError("hands", "wrong number of hands", "game record needs a list of hands")
    board = _Board(rules)
    rows = []
    for k, h in enumerate(hands_in):
        if board.result is not None:
            raise RefError("hands", "hands after game end",
                           f"hands[{k}] after the game ended in hand {board.result['hand']}")
        if not isinstance(h, dict):
            raise RefError("hands", "wrong number of hands", f"hands[{k}] is not a hand record")
        try:
            out = _score_hand_internal(_same_as_game(record, rules, h, k), rules)
        except RefError as e:
            raise RefError(e.field, e.why, f"hands[{k}]: {e.detail}") from None
        trump = None if out["trumps"] is None else SUITS.index(out["trumps"])
        for unit in out["_units"]:
            if not _play_unit_on_board(board, rules, unit, out["revoke"], trump, k):
                break
        rows.append(list(board.score))
    res = {
        "rules": {"preset": rules.preset, "players": rules.n_players,
                  "variants": dict(rules.variants)},
        "sides": [{"side": s, "seats": rules.seats_of(s)} for s in range(rules.n_sides)],
        "target": rules.target,
        "hands_scored": len(rows),
        "running": rows,
    }
    g = board.result
    if g is None:
        res.update({"finished": False, "winner": None, "how": "unfinished", "step": None,
                    "hand": None})
    else:
        res.update({"finished": True, "winner": g["winner"],
                    "winner_seats": rules.seats_of(g["winner"]), "how": g["how"],
                    "step": g["step"], "hand": g["hand"]})
        for key in ("set", "trick", "loser"):
            if key in g:
                res[key] = g[key]
    return res


def score_any(record: dict) -> dict:
    """Score a hand record or a game record, told apart by shape: a game record's ``hands``
    is a list of objects, a hand record's a list of card lists."""
    hands = record.get("hands") if isinstance(record, dict) else None
    if isinstance(hands, list) and hands and all(isinstance(h, dict) for h in hands):
        return score_game(record)
    listed = hands if isinstance(hands, list) else []
    if isinstance(record, dict) and "hands" in record and "dealer" not in record and (
            any(isinstance(h, dict) for h in listed)
            or not any(isinstance(h, list) for h in listed)):
        return score_game(record)   # no dealer and no card lists: a (malformed) game
    return score_record(record)
