"""Rule presets and variant switches (docs/rules.md §2-§5, fine points §7), resolved once.

``Rules`` is frozen and validated: a preset name, a player count and a mapping of
switches. Everything the kernels need is derived once by :meth:`Rules.tables`
(DESIGN.md §3: rules reach kernels as data, never as code).

Presets
-------
``foster`` (default; rules sources 000, 003, 001 of docs/rules.md), ``jaques`` (source 004
as written) and ``french52`` (source 001, last paragraph). Every switch of docs/rules.md §3
and §4 is accepted with every preset where it makes sense; switches that do not apply to the
player count are accepted and do nothing (§7.7). Combinations that cannot work are refused
with a :class:`RulesError` that says why.
"""
from __future__ import annotations

import json
import re
import threading
import tomllib
from collections import namedtuple
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any
from collections.abc import Mapping

import numpy as np

from .cards import RANK_CHARS, SUIT_CHARS, Rank, Suit, _shown, card_index, format_card
from ._kernels.layout import (COUNT_OUT_STEPS, NO_TRUMPS, P_N, P_NPARAMS, P_NSETS,
                              P_NSIDES, P_PERSET, P_SETSIZE, P_SHARE, P_TARGET, P_TIE,
                              REVOKE_CODES, DealRules, PlayRules,
                              STEP_ACE, STEP_JACK, STEP_KING, STEP_NINE, STEP_QUEEN,
                              STEP_TEN, STEP_TEN_OF_DIAMONDS, TIE_CODES)
from .errors import (CatchTenError, ParseError, RulesError, check_keys, choices_hint,
                     described, not_a)
from .inputs import MAX_NESTING, check_nesting, json_kind, read_text
from .switches import (_BOOL, _INT, DEFAULTS, PRESETS, REGISTRY, SWITCH_OF, SWITCHES,
                       Revoke, SetScoring, SixPlayers, SmallDeal, Switch, Tie, spell_value,
                       sweep_values, switch_summary, switch_table)

__all__ = ["COUNT_OUT_STEPS", "NO_TRUMPS", "PRESETS", "REGISTRY", "REVOKE_CODES", "Revoke",
           "Rules", "SWITCH_OF", "SetScoring", "SixPlayers", "SmallDeal", "Switch", "TIE_CODES",
           "Tables", "PlayRules", "DealRules", "Tie", "spell_value", "switch_summary",
           "switch_table", "sweep_values"]

#: the kernels' tables of the rules met so far (:meth:`Rules.tables`), oldest first
_TABLES: dict = {}
_TABLES_KEPT = 64
_TABLES_LOCK = threading.Lock()

PLAYERS_ALLOWED = {"foster": range(2, 9), "jaques": (4, 6), "french52": (4,)}

#: trump rank order, high to low, by preset (rank codes)
_FOSTER_TRUMP_ORDER = (Rank.JACK, Rank.ACE, Rank.KING, Rank.QUEEN, Rank.TEN, Rank.NINE,
                       Rank.EIGHT, Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE,
                       Rank.TWO)
_JAQUES_TRUMP_ORDER = (Rank.JACK, Rank.TEN, Rank.ACE, Rank.KING, Rank.QUEEN, Rank.NINE,
                       Rank.EIGHT, Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE,
                       Rank.TWO)
_FOSTER_HONOURS = {Rank.JACK: 11, Rank.TEN: 10, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2}
_JAQUES_HONOURS = {Rank.JACK: 3, Rank.TEN: 10, Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2,
                   Rank.NINE: 1}

_STEP_OF_RANK = {Rank.TEN: STEP_TEN, Rank.ACE: STEP_ACE, Rank.KING: STEP_KING,
                 Rank.QUEEN: STEP_QUEEN, Rank.JACK: STEP_JACK, Rank.NINE: STEP_NINE}


#: what a bad value of a true/false or a number switch is told (a word switch lists its words)
#: (yes/no, on/off and 1/0 are read as them too: the line names the two words only)
_ALLOWED_BOOL = "true or false"
_ALLOWED_INT = "a whole number, 1 to 10000"
#: where an unknown switch is told to look when no switch is near its name
SWITCHES_POINTER = "see: catchten rules --switches"


#: how ``catchten rules`` names each count-out step (``COUNT_OUT_STEPS``, docs/rules.md §7.10)
_STEP_LABELS = {"ten": "Ten", "ten_of_diamonds": "10♦ bonus", "cards": "cards", "ace": "Ace",
                "king": "King", "queen": "Queen", "jack": "Jack", "nine": "Nine"}


def _as_bool(name: str, value: Any, field: str = "variants") -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
        return False
    raise RulesError(field, "bad variant value", f"{name}={_shown(value)}: {_ALLOWED_BOOL}")


def _words(kind: tuple[str, ...]) -> str:
    """A word switch's words as a bad value's detail says them: ``a, b or c``."""
    return f"{', '.join(kind[:-1])} or {kind[-1]}"


def _normalise_switch(preset: str, name: str, value: Any, field: str = "variants") -> Any:
    """Switch ``name``'s value as :class:`Rules` keeps it; the errors name ``field``
    (``variants``, the constructor's argument and a file's key; ``variant``, the command
    line's ``--variant``)."""
    if name not in SWITCHES:
        hint = choices_hint(name, sorted(SWITCHES), SWITCHES_POINTER)
        raise RulesError(field, "unknown variant", f"{_shown(name)}; {hint}")
    kind, presets = SWITCHES[name]
    if presets is not None and preset not in presets:
        raise RulesError(field, "unknown variant",
                         f"{name} is a switch of {'/'.join(presets)}, not of {preset}")
    if kind == _BOOL:
        return _as_bool(name, value, field)
    if kind == _INT:
        if isinstance(value, bool):
            raise RulesError(field, "bad variant value",
                             f"{name}={_shown(value)}: {_ALLOWED_INT}")
        try:
            v = int(value) if not isinstance(value, float) or value.is_integer() else None
        except (TypeError, ValueError):
            v = None
        if v is None or not 1 <= v <= 10000:
            raise RulesError(field, "bad variant value",
                             f"{name}={_shown(value)}: {_ALLOWED_INT}")
        return v
    # a word
    if name == "card_points" and isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, str):
        word = value.strip()
        for allowed in kind:
            if word.lower() == allowed.lower():
                return allowed
    raise RulesError(field, "bad variant value", f"{name}={_shown(value)}: {_words(kind)}")


#: ``PlayRules`` (the switches of play) and ``DealRules`` (the switches of dealing) live in
#: :mod:`catchten_sim._kernels.layout` (the kernels never import this module).

#: the kernels' table bundle (a numba-compatible named tuple, built once per Rules and
#: cached: :meth:`Rules.tables`). Fields:
#:
#: Rule tables
#:   ``params`` int64 (P_NPARAMS,): scalar rule parameters by the ``P_*`` indices of
#:   :mod:`catchten_sim._kernels.layout`; ``deck`` int64 (deck_size,) card indices of the
#:   pack, ascending; ``deck_mask`` int64 scalar, the same as a mask; ``side_of_seat``
#:   int64 (n,) (docs/rules.md §7.8); ``trump_power`` int64 (5, 52): > 0 when card ``c`` is a
#:   trump with trumps ``t`` (4 = no trumps), higher wins; ``rank_power`` int64 (52,)
#:   strength in its own suit (rank + 1); ``honours`` int64 (5, 52) honour points, the
#:   10♦ bonus included (§2, §4, §7.2); ``step`` int64 (5, 52) count-out step of a card's
#:   honour points (``STEP_*``, -1 none; §7.10); ``ten_card`` int64 (5,) the Ten of
#:   trumps per trump code (-1 with no trumps); ``top_trump`` int64 (8192,) rank of the
#:   highest trump in a 13-bit lane in the preset's trump order (-1 empty lane).
#: Switch flags (bools, named after the switches; docs/rules.md §3, §4)
#:   ``play_rules`` a :data:`PlayRules`, the switches of play, read by the rule functions
#:   of :mod:`catchten_sim._kernels.trick` alone; ``deal_rules`` a :data:`DealRules`, the
#:   switches of dealing, read by :mod:`catchten_sim._kernels.deal` alone (the kernels
#:   that call them pass the tuple along); ``card_points`` (on).
#: Derived policy tables (the heuristic policy; per trump code ``t``)
#:   ``hon_mask`` int64 (5,) the cards that score honours; ``beats`` int64 (5, 52) mask of
#:   the cards that beat ``c`` in a trick where ``c`` is a trump or of the suit led (for a
#:   plain card also every trump); ``clow`` int64 (5, 52) cost of throwing ``c`` away
#:   (honours last, trumps after plain cards, low first); ``cwin`` int64 (5, 52) cost of
#:   winning with ``c`` (honour points * 1000 + power); ``pw`` int64 (5, 52) power of
#:   ``c`` as a trump, else in its own suit; ``top3`` int64 (5,) the three highest trumps
#:   other than the Ten; ``opp_after`` int64 (n, n): 1 when an opponent of ``seat`` plays
#:   after it when it plays the ``k``-th card (0-based) of a trick.
#: Scoring table
#:   ``hon_lane`` int64 (5, 4, 64): honour points of the cards of suit ``s`` of rank 9 or
#:   higher given as a 6-bit lane (bit ``r - 7`` for rank code ``r``), per trump code: a
#:   side's honours are four lookups (:func:`catchten_sim._kernels.scoring.honour_points`).
Tables = namedtuple("Tables", [
    "params", "deck", "deck_mask", "side_of_seat", "trump_power", "rank_power", "honours",
    "step", "ten_card", "top_trump", "play_rules", "deal_rules", "card_points",
    "hon_mask", "beats", "clow", "cwin", "pw", "top3", "opp_after", "hon_lane"])


def _policy_tables(n, deck_mask, side_of_seat, trump_power, rank_power, honours, ten_card):
    """The derived policy tables of :data:`Tables` (numpy, once per Rules)."""
    bits = np.int64(1) << np.arange(52, dtype=np.int64)
    suit = np.arange(52) // 13
    tp = trump_power
    rp = rank_power
    hon = honours
    hon_mask = ((hon != 0) * bits).sum(axis=1).astype(np.int64)
    pw = np.where(tp > 0, tp, rp[None, :])
    cwin = hon * 1000 + pw
    clow = hon * 1000 + np.where(tp > 0, 200 + tp - 100, rp[None, :])
    # power of card d in a trick led in the suit of card c: [t, c, d]
    same = suit[:, None] == suit[None, :]
    pd = np.where(tp[:, None, :] > 0, tp[:, None, :],
                  np.where(same[None, :, :], rp[None, None, :], 0))
    beats = ((pd > pw[:, :, None]) * bits[None, None, :]).sum(axis=2).astype(np.int64)
    top3 = np.zeros(5, dtype=np.int64)
    for t in range(NO_TRUMPS):
        ten = int(ten_card[t])
        cands = [c for c in range(52) if tp[t, c] > 0 and (int(deck_mask) >> c) & 1 and c != ten]
        for c in sorted(cands, key=lambda c: -tp[t, c])[:3]:
            top3[t] |= np.int64(1) << c
    opp_after = np.zeros((n, n), dtype=np.int64)
    for seat in range(n):
        for k in range(n):
            opp_after[seat, k] = any(side_of_seat[(seat + j) % n] != side_of_seat[seat]
                                     for j in range(1, n - k))
    assert not (hon[:, :] != 0)[:, (np.arange(52) % 13) < 7].any(), "honours below the 9"
    hon_lane = np.zeros((5, 4, 64), dtype=np.int64)
    for lane in range(64):
        for r in range(6):
            if lane >> r & 1:
                for s in range(4):
                    hon_lane[:, s, lane] += hon[:, s * 13 + 7 + r]
    return (hon_mask, beats, clow.astype(np.int64), cwin.astype(np.int64),
            pw.astype(np.int64), top3, opp_after, hon_lane)


@dataclass(frozen=True)
class Rules:
    """A validated, frozen set of rules: preset, player count and switches.

    Parameters
    ----------
    preset : str
        ``foster`` (default), ``jaques`` or ``french52`` (docs/rules.md §2, §4, §5).
    players : int
        2 to 8 for foster; 4 or 6 for jaques (4 with ``deck52``); 4 for french52.
    variants : Mapping[str, Any]
        Switches of docs/rules.md §3/§4 by name; values true/false, a number or a word.
        Only switches that differ from the preset's defaults need be given.

    Raises
    ------
    RulesError
        ``unknown preset``, ``unknown variant``, ``bad variant value`` (also for switches
        that cannot combine, with the reason), ``players out of range``.
    """

    preset: str = "foster"
    players: int = 4
    variants: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        preset = self.preset.strip().lower() if isinstance(self.preset, str) else self.preset
        if preset not in PRESETS:
            raise RulesError("rules", "unknown preset", f"{_shown(self.preset)}; "
                             f"{choices_hint(self.preset, PRESETS)}")
        object.__setattr__(self, "preset", preset)
        if self.variants is None:
            given: Mapping[str, Any] = {}
        elif isinstance(self.variants, Mapping):
            given = self.variants
        else:
            raise RulesError("variants", "bad variant value",
                             f"variants must be a mapping of switch names to values, "
                             f"not {json_kind(self.variants)}")
        values = dict(DEFAULTS[preset])
        for name, value in given.items():
            values[str(name)] = _normalise_switch(preset, str(name), value)
        object.__setattr__(self, "variants", MappingProxyType(values))
        if isinstance(self.players, bool) or not isinstance(self.players, (int, np.integer)):
            try:
                p = int(str(self.players))
            except ValueError:
                raise RulesError("players", "not a whole number",
                                 f"{_shown(self.players)} is not a number of players") from None
        else:
            p = int(self.players)
        object.__setattr__(self, "players", p)
        allowed = PLAYERS_ALLOWED[preset]
        if preset == "jaques" and values["deck52"]:
            allowed = (4,)
        if p not in allowed:
            what = f"{preset}, deck52" if preset == "jaques" and values["deck52"] else preset
            shown = f"{allowed[0]} to {allowed[-1]}" if isinstance(allowed, range) else \
                " or ".join(str(a) for a in allowed)
            raise RulesError("players", "players out of range",
                             f"{p} {'player' if p == 1 else 'players'} with {what}; "
                             f"allowed: {shown}")
        self._check_combinations(values, {str(name) for name in given})

    # ------------------------------------------------------------------ validation
    def _check_combinations(self, v: Mapping[str, Any], given: set[str]) -> None:
        """Refuse switches that cannot combine. ``given`` names the switches the caller
        wrote, so a value equal to the preset's default still counts as said."""
        if v["game_at_once"] and v["revoke"] in ("hand", "forfeit"):
            raise RulesError("variants", "bad variant value",
                             "game_at_once needs revoke=game (docs/rules.md §7.4)")
        # jaques 6 players (docs/rules.md §4, §7.8): both switches say how the six sit;
        # written together they must say the same thing
        if self.preset == "jaques" and {"six_as_three_pairs", "six_players"} <= given and \
                v["six_as_three_pairs"] != (v["six_players"] == "pairs"):
            raise RulesError("variants", "bad variant value",
                             f"six_players={v['six_players']} but six_as_three_pairs="
                             f"{str(v['six_as_three_pairs']).lower()}")
        if self.preset == "jaques" and v.get("dealer_declares") and v["exposed_trump"]:
            raise RulesError("variants", "bad variant value",
                             "dealer_declares has no turn-up for exposed_trump")

    def _given(self) -> dict:
        return {k: val for k, val in self.variants.items() if DEFAULTS[self.preset].get(k) != val}

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_options(cls, preset: str | None = None, players: int | None = None,
                     variant_items: tuple[str, ...] | list[str] = (),
                     rules_file: str | Path | None = None) -> Rules:
        """Rules from CLI-style options.

        ``variant_items`` are ``name`` (switch on) or ``name=value`` strings. A rules file
        (TOML, see :meth:`from_toml`) is read first; options given override it. Without
        either, the preset is foster and the players 4.

        Raises
        ------
        CatchTenError
            ``variant`` (the option's name: an error about the items): ``given twice``
            when two items set one switch to different values (which one was meant is
            not for us to guess), ``unknown variant``, ``bad variant value``; the checks
            of :class:`Rules`.
        """
        merged: dict[str, Any] = {}
        if rules_file is not None:
            data = _read_toml(rules_file)
            preset = preset if preset is not None else data.get("rules")
            players = players if players is not None else data.get("players")
            merged.update(data.get("variants", {}))
        given: dict[str, Any] = {}
        for item in variant_items:
            name, sep, value = item.partition("=")
            name, v = name.strip(), (value.strip() if sep else True)
            if name in given and str(given[name]).lower() != str(v).lower():
                raise CatchTenError("variant", "given twice",
                                    f"{name}={spell_value(given[name])} and "
                                    f"{name}={spell_value(v)}")
            given[name] = merged[name] = v
        preset = preset if preset is not None else "foster"
        name_of = preset.strip().lower() if isinstance(preset, str) else None
        if name_of in PRESETS:
            # a switch of --variant is told as the option's (a rules file's by the
            # constructor, as ``variants``)
            for name, v in given.items():
                _normalise_switch(name_of, name, v, "variant")
        try:
            return cls(preset, players if players is not None else 4, merged)
        except RulesError as exc:
            # switches that do not combine, one of them the option's
            if exc.field == "variants" and any(n in exc.detail for n in given):
                raise RulesError("variant", exc.why, exc.detail) from None
            raise

    @classmethod
    def from_toml(cls, path: str | Path) -> Rules:
        """Rules from a TOML file: ``rules = "foster"``, ``players = 4``, ``[variants]``.

        Raises
        ------
        ParseError
            The file is missing or is not TOML.
        RulesError
            As the constructor.
        """
        data = _read_toml(path)
        return cls(data.get("rules", "foster"), data.get("players", 4), data.get("variants", {}))

    # ------------------------------------------------------------------ switches, typed
    def v(self, name: str) -> Any:
        """The resolved value of switch ``name`` as written (a bool, an int or a word).
        Prefer the typed attributes below."""
        return self.variants[name]

    def _word(self, name: str) -> Any:
        sw = SWITCH_OF[name]
        word = self.variants[name]
        if sw.enum is Suit:
            return Suit[word]
        return sw.enum(sw.kind.index(word))

    @property
    def game_at_once(self) -> bool:
        return bool(self.variants["game_at_once"])

    @property
    def everyone_alone(self) -> bool:
        return bool(self.variants["everyone_alone"])

    @property
    def keep_six_of_spades(self) -> bool:
        return bool(self.variants["keep_six_of_spades"])

    @property
    def no_trump_first_lead(self) -> bool:
        return bool(self.variants["no_trump_first_lead"])

    @property
    def exposed_trump(self) -> bool:
        return bool(self.variants["exposed_trump"])

    @property
    def must_trump(self) -> bool:
        return bool(self.variants["must_trump"])

    @property
    def ten_of_diamonds_bonus(self) -> bool:
        return bool(self.variants["ten_of_diamonds_bonus"])

    @property
    def six_as_three_pairs(self) -> bool:
        return bool(self.variants.get("six_as_three_pairs", False))

    @property
    def revoke(self) -> Revoke:
        return self._word("revoke")

    @property
    def tie_rule(self) -> Tie:
        """``tie`` as its kernel code (:attr:`tie` is the word)."""
        return self._word("tie")

    @property
    def small_deal(self) -> SmallDeal:
        return self._word("small_deal")

    @property
    def set_scoring(self) -> SetScoring:
        return self._word("set_scoring")

    @property
    def six_players(self) -> SixPlayers:
        return self._word("six_players")

    @property
    def removed_six(self) -> Suit:
        return self._word("removed_six")

    # ------------------------------------------------------------------ derived facts

    @property
    def deck52(self) -> bool:
        return self.preset == "french52" or (self.preset == "jaques"
                                             and bool(self.variants["deck52"]))

    @property
    def keep_dead_card(self) -> bool:
        """True when 35 of 36 cards are dealt and one is laid aside (``keep_six_of_spades``)."""
        return (self.preset == "foster" and self.players in (5, 7)
                and self.keep_six_of_spades)

    @property
    def deck(self) -> list[int]:
        """Card indices of the pack, ascending (docs/rules.md §1, §2 player table, §3).
        A new list each call (worked out once per Rules)."""
        cached = self.__dict__.get("_deck")
        if cached is None:
            cached = tuple(self._build_deck())
            object.__setattr__(self, "_deck", cached)
        return list(cached)

    def _build_deck(self) -> list[int]:
        if self.deck52:
            return list(range(52))
        cards = [card_index(s, r) for s in range(4) for r in range(Rank.SIX, Rank.ACE + 1)]
        removed: set[int] = set()
        if self.preset == "foster" and self.players in (5, 7) and not self.keep_dead_card:
            removed.add(card_index(self.removed_six, Rank.SIX))
        if self.preset == "foster" and self.players == 8:
            removed |= {card_index(s, Rank.SIX) for s in range(4)}
        return sorted(c for c in cards if c not in removed)

    @property
    def n_dealt(self) -> int:
        """Cards dealt to the players (the deck less any dead card)."""
        return len(self.deck) - (1 if self.keep_dead_card else 0)

    @property
    def cards_per_player(self) -> int:
        return self.n_dealt // self.players

    @property
    def n_sets(self) -> int:
        """Six-card sets per deal: 3 with 2 players, 2 with 3, when dealt in sets; else 1."""
        if self.preset == "foster" and self.players in (2, 3) and self.small_deal == SmallDeal.SETS:
            return self.cards_per_player // 6
        return 1

    @property
    def set_size(self) -> int:
        """Cards per player in one set (the whole hand when not dealt in sets)."""
        return self.cards_per_player // self.n_sets

    @property
    def per_set_scoring(self) -> bool:
        return self.n_sets > 1 and self.set_scoring == SetScoring.PER_SET

    @property
    def n_sides(self) -> int:
        """Number of sides (partnerships, or players alone). docs/rules.md §2, §4, §7.8."""
        n = self.players
        if self.everyone_alone or n in (2, 3, 5, 7):
            return n
        if n == 6:
            pairs = self.six_players == SixPlayers.PAIRS or self.six_as_three_pairs
            return 3 if pairs else 2
        return n // 2

    def side_of(self, seat: int) -> int:
        """Side of a seat: seat mod number of sides (docs/rules.md §7.8)."""
        return seat % self.n_sides

    def seats_of(self, side: int) -> list[int]:
        return [s for s in range(self.players) if s % self.n_sides == side]

    @property
    def side_size(self) -> int:
        return self.players // self.n_sides

    @property
    def share(self) -> int:
        """Cards a side must take before it scores card points, per scoring unit.

        Per set (6 × side size) with per-set scoring, else the side's cards for the deal.
        """
        unit = self.set_size if self.per_set_scoring else self.cards_per_player
        return unit * self.side_size

    @property
    def card_points(self) -> bool:
        return self.variants["card_points"] == "on"

    @property
    def ten_bonus(self) -> bool:
        return self.ten_of_diamonds_bonus

    @property
    def deal_points_bound(self) -> int:
        """At least the points of one deal, every side's together: the trump honours,
        the 10♦ bonus, and with card points one per card dealt (a side's card points are
        the cards it took above its share: docs/rules.md §4). So a side's points lie in
        ``[0, B]`` and its points minus the others' in ``[-B, B]``.

        >>> Rules("french52", 4).deal_points_bound, Rules("foster", 4).deal_points_bound
        (40, 66)
        """
        return (self.honours_total + (10 if self.ten_bonus else 0)
                + (self.n_dealt if self.card_points else 0))

    @property
    def target(self) -> int:
        return int(self.variants["target"])

    def score_problem(self, scores: Any) -> str | None:
        """What is wrong with ``scores`` as a game score before a deal, or None when it is
        one: one whole number per side, each from 0 to ``target - 1`` (a side at the
        target has won; docs/rules.md §2, §3 ``target``). The one check of a game score
        that positions, game simulations and equity look-ups share; each caller raises
        its own error with this text."""
        if isinstance(scores, np.ndarray):
            scores = scores.tolist()
        ok = isinstance(scores, (list, tuple)) and len(scores) == self.n_sides and all(
            isinstance(x, (int, np.integer)) and not isinstance(x, bool)
            and 0 <= int(x) < self.target for x in scores)
        if ok:
            return None
        shown = json.dumps(list(scores) if isinstance(scores, (list, tuple)) else scores,
                           default=lambda x: int(x) if isinstance(x, np.integer) else str(x))
        if len(shown) > 14:               # the line stays within 80 columns
            shown = shown[:9].rsplit(",", 1)[0] + ", ...]" if shown[:1] == "[" else \
                shown[:11] + "..."
        return f"{shown}: {self.n_sides} whole numbers 0 to {self.target - 1}, a side each"

    @property
    def tie(self) -> str:
        return self.variants["tie"]

    @property
    def revoke_penalty(self) -> str:
        return self.variants["revoke"]

    @property
    def dealer_declares(self) -> bool:
        return self.preset == "jaques" and bool(self.variants["dealer_declares"])

    def deal_trump(self, turnup: int | None, trump: int | None,
                   error: type[CatchTenError] = CatchTenError) -> int:
        """The trump suit of a deal written down with ``turnup`` (card index or None) and a
        declared ``trump`` (suit code 0-3, 4 for no trumps, or None): the turn-up's suit,
        or with jaques ``dealer_declares`` (docs/rules.md §4) the declared trump, which
        has no turn-up. The one check of the pair that positions, deals from hands and
        :class:`~catchten_sim.state.PlayState` share.

        Raises ``error(field, why, detail)``: ``turnup`` missing, or given with
        ``dealer_declares``; ``trump`` missing with ``dealer_declares``, not a suit code,
        or not the turn-up's suit."""
        if self.dealer_declares:
            if trump is None:
                raise error("trump", "missing",
                            "dealer_declares: give the declared trump, S, H, D, C or NT")
            if turnup is not None:
                raise error("turnup", "no turn-up with dealer_declares",
                            "the dealer names trumps: give the trump, not a turn-up")
            if isinstance(trump, bool) or not isinstance(trump, (int, np.integer)) \
                    or not 0 <= trump <= NO_TRUMPS:
                raise error("trump", "bad trump",
                            f"got {described(trump)}; a suit code 0-3, or {NO_TRUMPS} for no "
                            "trumps")
            return int(trump)
        if turnup is None:
            raise error("turnup", "missing", "the turned-up card is required")
        if trump is not None and trump != int(turnup) // 13:
            raise error("trump", "bad trump", "trump must be the turn-up's suit")
        return int(turnup) // 13

    @property
    def trump_order(self) -> tuple[int, ...]:
        """Trump ranks high to low (rank codes) restricted to the deck's ranks."""
        order = _JAQUES_TRUMP_ORDER if self.preset == "jaques" else _FOSTER_TRUMP_ORDER
        ranks = {c % 13 for c in self.deck}
        return tuple(r for r in order if r in ranks)

    @property
    def honour_values(self) -> dict[Rank, int]:
        """Honour points of the trump ranks (docs/rules.md §2, §4)."""
        return dict(_JAQUES_HONOURS if self.preset == "jaques" else _FOSTER_HONOURS)

    @property
    def honours_total(self) -> int:
        """Honour points of the trump honours (J, 10, A, K, Q; jaques also 9), without
        the 10♦ bonus."""
        return sum(self.honour_values.values())

    def trump_code_name(self, trump: int) -> str:
        return "no trumps" if trump == NO_TRUMPS else Suit(trump).long_name

    # ------------------------------------------------------------------ tables
    def tables(self) -> Tables:
        """The kernels' :data:`Tables` bundle, built once per set of rules (DESIGN.md §3):
        equal Rules share one bundle (each record, position and request builds its own
        Rules; building the bundle takes ~10 ms). Nothing writes into it."""
        cached = self.__dict__.get("_tables")
        if cached is None:
            key = (self.preset, self.players, tuple(sorted(self.variants.items())))
            with _TABLES_LOCK:
                cached = _TABLES.get(key)
                if cached is None:
                    if len(_TABLES) >= _TABLES_KEPT:
                        _TABLES.pop(next(iter(_TABLES)))
                    cached = _TABLES[key] = self._build_tables()
            object.__setattr__(self, "_tables", cached)
        return cached

    def _build_tables(self) -> Tables:
        n = self.players
        params = np.zeros(P_NPARAMS, dtype=np.int64)
        params[P_N] = n
        params[P_NSIDES] = self.n_sides
        params[P_NSETS] = self.n_sets
        params[P_SETSIZE] = self.set_size
        params[P_SHARE] = self.share
        params[P_PERSET] = int(self.per_set_scoring)
        params[P_TARGET] = self.target
        params[P_TIE] = int(self.tie_rule)
        deck = np.array(self.deck, dtype=np.int64)
        side_of_seat = np.array([self.side_of(s) for s in range(n)], dtype=np.int64)
        trump_power = np.zeros((5, 52), dtype=np.int64)
        honours = np.zeros((5, 52), dtype=np.int64)
        step = np.full((5, 52), -1, dtype=np.int64)
        ten_card = np.full(5, -1, dtype=np.int64)
        rank_power = np.array([c % 13 + 1 for c in range(52)], dtype=np.int64)
        order = self.trump_order
        hv = self.honour_values
        td = card_index(Suit.D, Rank.TEN)
        for t in range(4):
            for pos, r in enumerate(order):
                c = card_index(t, r)
                trump_power[t, c] = 100 + len(order) - pos
                if Rank(r) in hv:
                    honours[t, c] = hv[Rank(r)]
                    step[t, c] = _STEP_OF_RANK[Rank(r)]
            ten_card[t] = card_index(t, Rank.TEN)
            if self.ten_bonus and t != Suit.D:
                honours[t, td] += 10
                step[t, td] = STEP_TEN_OF_DIAMONDS
        # no trumps (jaques dealer_declares): A K Q J 10 of every suit at honour values
        for s in range(4):
            for r in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN):
                honours[NO_TRUMPS, card_index(s, r)] = hv[r]
                step[NO_TRUMPS, card_index(s, r)] = _STEP_OF_RANK[r]
        if self.ten_bonus:
            # diamonds are not trumps, so the 10♦ is worth 10 extra (docs/rules.md §3)
            honours[NO_TRUMPS, td] += 10
        top_trump = np.full(1 << 13, -1, dtype=np.int64)
        for lane in range(1, 1 << 13):
            for r in _JAQUES_TRUMP_ORDER if self.preset == "jaques" else _FOSTER_TRUMP_ORDER:
                if lane >> r & 1:
                    top_trump[lane] = r
                    break
        deck_mask = np.int64(sum(1 << c for c in self.deck))
        derived = _policy_tables(n, deck_mask, side_of_seat, trump_power, rank_power, honours,
                                 ten_card)
        return Tables(params, deck, deck_mask, side_of_seat, trump_power, rank_power, honours,
                      step, ten_card, top_trump,
                      # a play switch's flag is its typed attribute, by name: a new field
                      # of PlayRules is set here with no line to add
                      PlayRules(**{f: getattr(self, f) for f in PlayRules._fields}),
                      DealRules(keep_six_of_spades=self.keep_dead_card,
                                dealer_declares=self.dealer_declares),
                      self.card_points, *derived)

    # ------------------------------------------------------------------ description
    def given_variants(self) -> dict[str, Any]:
        """The switches that differ from the preset's defaults."""
        return self._given()

    def to_dict(self) -> dict[str, Any]:
        """``{"preset", "players", "variants"}`` with only non-default switches (JSON-ready)."""
        return {"preset": self.preset, "players": self.players, "variants": self._given()}

    def label(self) -> str:
        """Short label, e.g. ``foster 4p target=31``."""
        extra = " ".join(k if v is True else f"{k}={v}" for k, v in sorted(self._given().items()))
        return f"{self.preset} {self.players}p" + (f" {extra}" if extra else "")

    def describe(self) -> dict[str, Any]:
        """Everything a player needs to know about these rules (for ``catchten rules``)."""
        deck = self.deck
        order = self.trump_order
        sides = [{"side": s, "seats": self.seats_of(s)} for s in range(self.n_sides)]
        honours = {RANK_CHARS[r]: p for r, p in self.honour_values.items()}
        if self.ten_bonus:
            honours["10♦ bonus"] = 10
        dealing = (f"{self.n_sets} sets of 6 cards per player, dealt one set after another"
                   if self.n_sets > 1
                   else f"{self.cards_per_player} cards per player, one at a time")
        if self.keep_dead_card:
            dealing += "; 35 dealt, the 35th turned up for trumps, the 36th shown and laid aside"
        # the count-out steps (COUNT_OUT_STEPS' order) that these rules never score
        unscored = {step for step, scored in (("ten_of_diamonds", self.ten_bonus),
                                              ("cards", self.card_points),
                                              ("nine", Rank.NINE in self.honour_values))
                    if not scored}
        turnup = ("the dealer names trumps or no trumps (no turn-up)" if self.dealer_declares
                  else "the dealer's last card, turned up: its suit is trumps")
        return {
            "preset": self.preset,
            "players": self.players,
            "variants": dict(self.variants),
            # the switches that can change something in this preset at this player count
            # (a game switch always; a deal switch where its registry ``deal`` says)
            "switches_in_effect": {
                sw.name: self.variants[sw.name] for sw in REGISTRY
                if sw.name in self.variants and (
                    sw.deal is None
                    or ((sw.deal[0] is None or self.preset in sw.deal[0])
                        and (sw.deal[1] is None or self.players in sw.deal[1])))},
            "deck": {"size": len(deck), "cards": " ".join(format_card(c) for c in deck)},
            "dealing": dealing,
            "turnup": turnup,
            "sides": sides,
            "share": self.share,
            "card_points": ("1 point per card taken above the share" if self.card_points
                            else "none"),
            "scoring_unit": "set" if self.per_set_scoring else "deal",
            "trump_order": " ".join(RANK_CHARS[r] for r in order),
            "plain_order": " ".join(RANK_CHARS[r] for r in sorted({c % 13 for c in deck},
                                                                  reverse=True)),
            "honours": honours,
            # jaques dealer_declares at no trumps: the A K Q J 10 of every suit (§4)
            "no_trump_honours": ({RANK_CHARS[r]: self.honour_values[r]
                                  for r in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK,
                                            Rank.TEN)}
                                 if self.dealer_declares else None),
            "target": self.target,
            "tie": self.tie,
            "count_out_order": (", ".join(_STEP_LABELS[step] for step in COUNT_OUT_STEPS
                                          if step not in unscored)
                                if self.tie == "count_out" else None),
            "revoke": self.revoke_penalty,
            "game_at_once": self.game_at_once,
            "first_dealer": ("highest card deals (rules source 004, docs/rules.md)"
                             if self.preset == "jaques" else
                             "cut, lowest deals (rules source 000, docs/rules.md); simulations "
                             "rotate the deal"),
        }


#: the TOML reader's words for what is wrong, shorter (the line fits 80 columns with the
#: file's name)
_TOML_FAULTS = {"Expected newline or end of document after a statement":
                "one key = value a line", "Invalid value": "bad value",
                "Expected '=' after a key in a key/value pair": "'=' expected after a key",
                "Cannot overwrite a value": "a key given twice",
                "Unterminated string": "string not closed"}


def toml_fault(path: str | Path, said: str) -> str:
    """The detail of a file that is not TOML: ``PATH:LINE:COLUMN: what`` (or ``PATH: what,
    at the end``), the reader's words in few (``one key = value a line`` for ``Expected
    newline or end of document after a statement``)."""
    m = re.fullmatch(r"(.*?) \((?:at line (\d+), column (\d+)|at end of document)\)", said)
    if m is None:
        return f"{path}: {said}"
    what = _TOML_FAULTS.get(m.group(1), m.group(1)[:1].lower() + m.group(1)[1:])
    return f"{path}:{m.group(2)}:{m.group(3)}: {what}" if m.group(2) else \
        f"{path}: {what}, at the end"


def _read_toml(path: str | Path) -> dict:
    """The rules file's table: a UTF-8 TOML file with ``rules``, ``players`` and a
    ``[variants]`` table, nothing else (an unknown key is an error naming the nearest
    known one, :func:`catchten_sim.errors.check_keys`)."""
    text = read_text(path, "rules-file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ParseError("rules-file", "not TOML", toml_fault(path, str(exc))) from None
    except RecursionError:
        raise ParseError("rules-file", "nested too deeply",
                         f"{path}: lists and tables nested more than {MAX_NESTING} deep") \
            from None
    check_nesting(data, "rules-file", str(path))
    check_keys(data, ("rules", "players", "variants"), where="rules-file")
    if not isinstance(data.get("variants", {}), dict):
        raise ParseError("rules-file", "bad variants", "[variants] must be a table")
    _check_toml_types(data, path)
    return data


def _check_toml_types(data: dict, path: str | Path) -> None:
    """TOML has types: a whole number must be written as one (``players = 4``, not
    ``"4"``) and a switch as ``true``/``false`` (not ``"yes"``); the words of a word
    switch are strings. (The ``-V name=value`` options are text and are parsed.)

    Raises
    ------
    RulesError
        The field (``players``, ``rules``, ``variants.NAME``) and what was written.
    """
    def bad(field: str, want: str, value: Any, fix: str) -> RulesError:
        return RulesError(field, f"not {want}", f"{described(value)}; write {fix}")

    if "rules" in data and not isinstance(data["rules"], str):
        raise bad("rules", "a preset name", data["rules"], 'rules = "foster"')
    p = data.get("players")
    if "players" in data and (isinstance(p, bool) or not isinstance(p, int)):
        raise bad("players", "a whole number", p, "players = 4")
    for name, value in data.get("variants", {}).items():
        kind = SWITCHES.get(name, (None,))[0]
        if kind == _BOOL and not isinstance(value, bool):
            raise bad(f"variants.{name}", "true or false", value, f"{name} = true")
        if kind == _INT and (isinstance(value, bool) or not isinstance(value, int)):
            raise bad(f"variants.{name}", "a whole number", value, f"{name} = 31")
        if isinstance(kind, tuple) and not isinstance(value, str) and \
                not (name == "card_points" and isinstance(value, bool)):
            raise bad(f"variants.{name}", "a word", value, f'{name} = "{kind[0]}"')


def check_rules(rules: object) -> Rules:
    """``rules`` when it is a :class:`Rules`, for the functions that take one.

    Raises
    ------
    ArgumentError
        ``rules: not a Rules object`` (a CatchTenError and a TypeError), the value in
        plain words (never ``NoneType``).
    """
    if not isinstance(rules, Rules):
        raise not_a("rules", "a Rules object", rules, "e.g. Rules('foster', 4)")
    return rules


def suit_name(code: int) -> str:
    return "NT" if code == NO_TRUMPS else SUIT_CHARS[code]
