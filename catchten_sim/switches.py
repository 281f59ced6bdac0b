"""The switch registry (docs/rules.md §3, §4): one :class:`Switch` entry per rule switch,
and what derives from it without a :class:`~catchten_sim.rules.Rules` (the presets, the
defaults per preset, the word switches' enums, the switch list as data and as text, the
values of a variant sweep).

Moved out of ``rules.py`` unchanged; ``rules`` re-exports every name, and ``Rules`` reads
and validates switches against :data:`REGISTRY`.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any
from collections.abc import Mapping

from .cards import Suit
from ._kernels.layout import REVOKE_CODES, TIE_CODES

__all__ = ["DEFAULTS", "PRESETS", "REGISTRY", "Revoke", "SWITCHES", "SWITCH_OF", "SetScoring",
           "SixPlayers", "SmallDeal", "Switch", "Tie", "spell_value", "sweep_values",
           "switch_summary", "switch_table"]

PRESETS = ("foster", "jaques", "french52")

_BOOL = "bool"
_INT = "int"


class Revoke(IntEnum):
    """``revoke`` (docs/rules.md §3, §7.4); values are the kernel codes (``REVOKE_*``)."""

    GAME = REVOKE_CODES["game"]
    HAND = REVOKE_CODES["hand"]
    FORFEIT = REVOKE_CODES["forfeit"]


class Tie(IntEnum):
    """``tie`` (docs/rules.md §3, §7.10, §7.11); values are the kernel codes (``TIE_*``)."""

    COUNT_OUT = TIE_CODES["count_out"]
    HIGHER_TOTAL = TIE_CODES["higher_total"]
    REPLAY = TIE_CODES["replay"]


class SmallDeal(IntEnum):
    """``small_deal`` (docs/rules.md §3): 2 or 3 players dealt in six-card sets, or whole."""

    SETS = 0
    WHOLE = 1


class SetScoring(IntEnum):
    """``set_scoring`` (docs/rules.md §3, §7.9)."""

    PER_SET = 0
    PER_DEAL = 1


class SixPlayers(IntEnum):
    """``six_players`` (docs/rules.md §3): three sides of 2, or two sides of 3."""

    PAIRS = 0
    TRIPLES = 1


@dataclass(frozen=True)
class Switch:
    """One rule switch: the single registry entry everything else derives from.

    ``kind`` is ``"bool"``, ``"int"`` or the tuple of allowed words; ``enum`` the IntEnum
    of a word switch (member ``i`` is word ``i``; for ``removed_six`` the suit);
    ``defaults`` the default per preset (a preset missing: not a switch of it);
    ``applies`` where it has an effect; ``section`` the docs/rules.md section; ``kernel`` the
    name of its field in :data:`Tables` (a switch flag; ``play_rules.NAME`` /
    ``deal_rules.NAME``: a field of that sub-bundle) or of its ``P_*`` parameter, None
    when only the Python side reads it; ``text`` one line for ``catchten rules``;
    ``deal`` where it changes a single deal, as ``(presets, player counts)`` (None: all),
    or None for a switch of the game only (the report's variant sweep flips the switches
    with a ``deal``: booleans toggled, a two-word choice swapped); ``label`` its name in
    words.
    """

    name: str
    kind: Any
    defaults: Mapping[str, Any]
    applies: str
    section: str
    kernel: str | None
    text: str
    enum: Any = None
    deal: tuple[tuple[str, ...] | None, tuple[int, ...] | None] | None = None
    #: a few words naming it for a card player (the page's switch list, its errors)
    label: str = ""

    def of_preset(self, preset: str) -> bool:
        """Whether it can change anything under ``preset``: a switch of the preset
        (``defaults``) that changes a deal under it (``deal``'s presets) or the game only.
        RULES.md §3's switches are foster's; the registry lets every preset take them, but
        those that change a deal only with foster's player counts (sets, 5 or 7 players,
        six players as pairs or triples) do nothing under jaques or french52 (jaques at 6
        players: ``six_players = pairs`` is its own ``six_as_three_pairs``, offered once,
        under that name)."""
        return preset in self.defaults and (self.deal is None or self.deal[0] is None
                                            or preset in self.deal[0])

    def acts_at(self, preset: str, players: int) -> bool:
        """Whether it can change anything under ``preset`` with ``players`` players (what
        the page offers): :meth:`of_preset`, and a switch that changes a deal only at
        some player counts (``deal``'s counts: sets at 2 or 3 players, the 36th card at 5
        or 7, sides at 6, no partnerships at 4, 6 or 8, jaques' 52 cards at 4) only at
        those; a switch of the game only (``deal`` None: the target, the tie, a revoke's
        cost, winning at once) at every count. (Not ``applies``: that field says the same
        in words, for ``catchten rules``.)"""
        return self.of_preset(preset) and (self.deal is None or self.deal[1] is None
                                           or players in self.deal[1])

    def flipped(self, value: Any) -> Any:
        """The other value of a boolean or two-word switch (None for any other kind)."""
        if self.kind is _BOOL:
            return not value
        if isinstance(self.kind, tuple) and len(self.kind) == 2 and value in self.kind:
            return self.kind[1 - self.kind.index(value)]
        return None


def _all(value: Any, **per_preset: Any) -> dict[str, Any]:
    return {p: per_preset.get(p, value) for p in PRESETS}


#: the switch registry (docs/rules.md §3, §4): one entry per switch
REGISTRY: tuple[Switch, ...] = (
    Switch("game_at_once", _BOOL, _all(False), "all", "§3, §7.13", None,
           "a side reaching the target during a hand wins at once",
           label="Win at once on reaching the target"),
    Switch("everyone_alone", _BOOL, _all(False), "4, 6 or 8 players", "§3, §7.8", None,
           "no partnerships", deal=(None, (4, 6, 8)), label="Everyone plays alone"),
    Switch("keep_six_of_spades", _BOOL, _all(False), "5 or 7 players (foster)", "§3, §7.7",
           "deal_rules.keep_six_of_spades", "deal 35 of 36; the 36th is shown and laid aside",
           deal=(("foster",), (5, 7)), label="Lay the 36th card aside"),
    Switch("revoke", ("game", "hand", "forfeit"), _all("game", jaques="forfeit"), "all",
           "§3, §7.4", None, "what a revoke costs", Revoke, label="A revoke costs"),
    Switch("no_trump_first_lead", _BOOL, _all(False), "all", "§3, §7.6",
           "play_rules.no_trump_first_lead",
           "the first lead of a set may not be a trump (unless the leader holds only trumps)",
           deal=(None, None), label="No trump on the first lead"),
    Switch("exposed_trump", _BOOL, _all(False), "with a turn-up", "§3, §7.3, §7.6",
           "play_rules.exposed_trump", "the turn-up is locked until the last two tricks",
           deal=(None, None), label="Turn-up locked on the table"),
    Switch("small_deal", ("sets", "whole"), _all("sets"), "2 or 3 players (foster)", "§3, §2",
           "P_NSETS", "six-card sets, or the whole hand at once", SmallDeal,
           deal=(("foster",), (2, 3)), label="Deal 2 or 3 players"),
    Switch("set_scoring", ("per_set", "per_deal"), _all("per_set"), "with sets",
           "§3, §7.5, §7.9", "P_PERSET", "card points per set or per deal", SetScoring,
           deal=(("foster",), (2, 3)), label="Card points counted"),
    Switch("target", _INT, _all(41, french52=40), "all", "§3", "P_TARGET",
           "points to win the game", label="Target"),
    Switch("ten_of_diamonds_bonus", _BOOL, _all(False, french52=True), "all", "§3, §7.2",
           "honours", "the 10♦ is worth 10 extra", deal=(None, None),
           label="10♦ worth 10 extra"),
    Switch("card_points", ("on", "off"), _all("on", jaques="off", french52="off"), "all",
           "§3, §7.1", "card_points", "a card point for each card taken above the share",
           deal=(None, None), label="Card points"),
    Switch("removed_six", ("S", "C"), _all("S"), "5 or 7 players (foster)", "§3", "deck",
           "which six is removed", Suit, deal=(("foster",), (5, 7)), label="Six taken out"),
    Switch("must_trump", _BOOL, _all(False), "all", "§3", "play_rules.must_trump",
           "void in the led suit: trump if able", deal=(None, None),
           label="Must trump when void"),
    Switch("six_players", ("pairs", "triples"), _all("pairs", jaques="triples"), "6 players",
           "§3, §4, §7.8", "side_of_seat", "three sides of 2 or two sides of 3", SixPlayers,
           deal=(("foster",), (6,)), label="Six players as"),
    Switch("tie", ("count_out", "higher_total", "replay"),
           _all("count_out", jaques="higher_total"), "all", "§3, §7.10, §7.11", "P_TIE",
           "several sides reach the target in one unit", Tie,
           label="Several reach the target"),
    Switch("six_as_three_pairs", _BOOL, {"jaques": False}, "6 players (jaques)", "§4, §7.8",
           "side_of_seat", "6 players as three sides of 2", deal=(("jaques",), (6,)),
           label="Six players as three pairs"),
    Switch("dealer_declares", _BOOL, {"jaques": False}, "jaques", "§4",
           "deal_rules.dealer_declares",
           "the dealer names trumps or no trumps", deal=(("jaques",), None),
           label="Dealer names trumps"),
    Switch("deck52", _BOOL, {"jaques": False}, "4 players (jaques)", "§4", "deck",
           "play with 52 cards", deal=(("jaques",), (4,)), label="52-card deck"),
)
#: switch name -> its registry entry
SWITCH_OF: Mapping[str, Switch] = {sw.name: sw for sw in REGISTRY}

#: name -> (kind or allowed words, presets it belongs to (None = all)); from REGISTRY
SWITCHES: dict[str, tuple[Any, tuple[str, ...] | None]] = {
    sw.name: (sw.kind, None if set(sw.defaults) == set(PRESETS) else tuple(sw.defaults))
    for sw in REGISTRY}
#: preset -> switch -> default; from REGISTRY
DEFAULTS: dict[str, dict[str, Any]] = {
    p: {sw.name: sw.defaults[p] for sw in REGISTRY if p in sw.defaults} for p in PRESETS}


def switch_table(preset: str | None = None) -> list[dict[str, Any]]:
    """The switch list (for ``catchten rules --switches``, the README and the report's
    variant sweep): one dict per switch with ``name``, ``values`` (the allowed values),
    ``default`` (of ``preset``, or per preset), ``applies``, ``section``, ``kernel``,
    ``text``, ``label``. Switches that are not of ``preset`` are left out."""
    rows = []
    for sw in REGISTRY:
        if preset is not None and preset not in sw.defaults:
            continue
        values = ([False, True] if sw.kind == _BOOL else
                  "a whole number" if sw.kind == _INT else list(sw.kind))
        rows.append({"name": sw.name, "values": values,
                     "default": sw.defaults[preset] if preset else dict(sw.defaults),
                     "applies": sw.applies, "section": sw.section, "kernel": sw.kernel,
                     "text": sw.text, "label": sw.label})
    return rows


def spell_value(value: Any) -> str:
    """A switch value as the rules files and the registry write it: ``true``/``false``, a
    number or a word."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def switch_summary() -> str:
    """The README's one-paragraph switch list, derived from :data:`REGISTRY` (a test
    checks that the README carries it)."""
    def spell(sw: Switch) -> str:
        if sw.kind == _BOOL:
            return f"`{sw.name}`"
        if sw.kind == _INT:
            return f"`{sw.name}=N`"
        return f"`{sw.name}={'|'.join(sw.kind)}`"
    common = [spell(sw) for sw in REGISTRY if set(sw.defaults) == set(PRESETS)]
    only = [spell(sw) for sw in REGISTRY if set(sw.defaults) == {"jaques"}]
    return (f"Switches ([docs/rules.md](docs/rules.md) §3-§4): {', '.join(common)}; "
            f"jaques only: {', '.join(only)}.")


def sweep_values(name: str, preset: str) -> list[Any]:
    """The values of switch ``name`` other than ``preset``'s default (a variant sweep);
    for ``target``, the targets named by docs/rules.md §3 (31, 41, 51, 61)."""
    sw = SWITCH_OF[name]
    default = sw.defaults[preset]
    if sw.kind == _BOOL:
        return [not default]
    if sw.kind == _INT:
        return [t for t in (31, 41, 51, 61) if t != default]
    return [w for w in sw.kind if w != default]
