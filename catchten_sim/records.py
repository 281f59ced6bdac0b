"""Hand records and game records: parse, validate and score them (docs/formats.md).

This is readable pure Python, not a hot path. It follows docs/formats.md ("Hand record",
"Score output", "Game record", "Game score output", "Errors in records") and docs/rules.md,
whose §7 fine points and closing checking order are normative.

Public API
----------
load_record(path) -> dict
    Read a JSON record file (``ParseError`` with field ``record`` when it is not one).
score_record(data) -> dict
    A hand record -> the docs/formats.md "Score output".
score_game(data) -> dict
    A game record -> the docs/formats.md "Game score output".
is_game_record(data) -> bool, score_any(data) -> dict
    Tell the two kinds apart by shape and score either.
hand_from_record(data) -> (Rules, dealer, set_hands, turnup, dead, play)
    A validated hand record as plain values, for code that replays it.

Checking order (docs/rules.md, end; the first fault wins): rules, variants, players, dealer,
number of hands, card syntax (hands, then dead), cards in the deck, duplicates, cards per
hand, dead count, turn-up, play length, then the play card by card (played twice, not in
hand, exposed trump, trump led first, revoke). Every refusal is a
:class:`~catchten_sim.errors.CatchTenError` carrying the docs/formats.md ``field`` and ``why``.
A revoke is not an error: it is reported and penalised (docs/rules.md §7.3-§7.5).

Readings decided here where the texts are silent (docs/rules.md says: follow source 000, and say so)
--------------------------------------------------------------------------------------------
- A bad ``dealer`` is field ``dealer`` with why ``dealer out of range`` (issue 13). Keys
  that docs/formats.md does not name are refused (field: the key, why ``unknown field``, the
  nearest known key in the detail), before anything else. A missing ``turnup`` means the
  dealer's last card; a missing ``dead`` or
  ``play`` is empty. A malformed turn-up is checked at the turn-up step, a malformed play card
  at its place in the play (card syntax in the checking order names hands and dead only).
- ``must_trump``: a player void in the led suit who discards while holding a (playable) trump
  has broken the rule of play; it is reported and penalised as a revoke, like a failure to
  follow suit.
- Games, §7.14: an unfinished *scoring unit* adds nothing. With per-set scoring the completed
  sets of a partial last hand count (each set is scored "as its own hand", §2), and with
  ``game_at_once`` a win inside the completed tricks of a partial hand stands (a record of
  the deciding hand naturally stops at the winning trick).
- ``tie = replay`` (§3): the first time several sides pass the target together, another hand
  is played (points kept, as source 004's "play an additional hand to break the tie"); after
  that the higher total among the sides at or over the target wins (equal again: another hand).
- §7.10 count-out: if two sides are still level after "fewer points needed" and "higher final
  total", the lower side number wins.
- §7.12 with ``game_at_once``: a win at a trick before the revoking trick stands; from the
  revoking trick on, no at-once win is counted and the revoke decides at the end of its unit.
- §7.13 with three or more sides: several sides passing the target at the same moment (only
  possible when card points are added at the end of a unit) are separated by the ``tie``
  rule: ``count_out`` by §7.10's card-step rule (``how: "count_out"``, ``step: "cards"``),
  the others as at the end of any unit.
- The count-out ``step`` names are those of :data:`catchten_sim.rules.COUNT_OUT_STEPS`
  (``ten``, ``ten_of_diamonds`` (the 10♦ bonus), ``cards``, ``ace``, ``king``, ``queen``,
  ``jack``, ``nine``).
- Each hand of a game record may repeat ``rules``/``variants``/``players``; a value that
  differs from the game's is refused with that field and its usual why (``unknown preset``,
  ``bad variant value``, ``players out of range``); variants are compared after resolving.
- The ``tie`` switch is honoured with every preset (a jaques game given ``tie=count_out``
  counts out; §7.11 describes jaques' own default, ``higher_total``).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .cards import SUIT_CHARS, format_card, parse_card
from .errors import (FORMATS_POINTER, CatchTenError, IllegalPlayError, ParseError, RulesError,
                     check_keys)
from .inputs import card_at, json_kind, preset_name, read_json_object
from .rules import COUNT_OUT_STEPS, Rules
from .state import PlayState, check_deal, split_sets, unit_scores

__all__ = ["load_record", "score_record", "score_game", "is_game_record", "record_kind",
           "score_any", "hand_from_record", "rules_of_record"]

#: the keys of a hand record and of a game record (docs/formats.md); any other key is refused
HAND_KEYS = ("rules", "variants", "players", "dealer", "hands", "turnup", "dead", "play")
GAME_KEYS = ("rules", "variants", "players", "hands")

N_STEPS = len(COUNT_OUT_STEPS)
STEP_CARDS = COUNT_OUT_STEPS.index("cards")


# ------------------------------------------------------------------------------ files
def load_record(path: str | Path) -> dict:
    """Read a hand record or game record from a JSON file.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    dict
        The record, not yet validated.

    Raises
    ------
    ParseError
        Field ``record``: the file is missing, unreadable, not UTF-8, not JSON, or not a
        JSON object (:func:`catchten_sim.inputs.read_json_object`; ``-`` reads stdin).
    """
    return read_json_object(path, "record")


# ------------------------------------------------------------------------------ rules
def _check_record_keys(data: Any, known: tuple[str, ...]) -> None:
    """A record is a JSON object whose keys are all known (issue 13: a typo such as
    ``variant`` for ``variants`` is an error, never a silent change of answer)."""
    if not isinstance(data, dict):
        raise ParseError("record", "not a record",
                         f"a record is a JSON object, not {json_kind(data)}")
    check_keys(data, known, pointer=FORMATS_POINTER)


def rules_of_record(data: dict) -> Rules:
    """The rules a record asks for, checked in the order rules, variants, players.

    ``rules`` defaults to ``foster`` and ``variants`` to none; ``players`` is required.
    A record asking for ``dealer_declares`` is refused (docs/rules.md §7.8: a record has no
    field for the declaration).

    Raises
    ------
    RulesError
        ``unknown preset``, ``unknown variant``, ``bad variant value``, ``players out of range``.
    """
    if not isinstance(data, dict):
        raise ParseError("record", "not a record", f"a record is a JSON object, not "
                         f"{json_kind(data)}")
    preset = preset_name(data.get("rules"))
    variants = data.get("variants")
    if variants is None:
        variants = {}
    # Rules checks the player count before the combinations of switches; a probe with a
    # player count every preset allows (4) keeps the order rules -> variants -> players.
    probe = Rules(preset, 4, variants)
    if probe.dealer_declares:
        raise RulesError("variants", "bad variant value",
                         "dealer_declares=true cannot be written in a record "
                         "(no field for the declaration, docs/rules.md §7.8)")
    players = data.get("players")
    if players is None:
        raise RulesError("players", "players out of range", "players missing")
    if isinstance(players, bool) or not isinstance(players, int):
        raise RulesError("players", "players out of range",
                         f"players={json.dumps(players)} is not a whole number")
    return Rules(preset, players, variants)


# ------------------------------------------------------------------------------ dealing
def _parse_deal(data: dict, rules: Rules) -> tuple[int, list[list[int]], list[int], int, list]:
    """Validate a hand record up to the play length (the checking order, docs/rules.md end).

    Returns ``(dealer, hands, dead, turnup, raw_play)`` with ``hands[seat]`` the seat's
    cards in set order (card indices) and ``raw_play`` the play as written.
    """
    n = rules.players
    dealer = data.get("dealer")
    if dealer is None:
        raise RulesError("dealer", "dealer out of range",
                         f"dealer missing: a seat from 0 to {n - 1}")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        given = data.get("hands")
        hint = (f"; but the record has {len(given)} hands: is players {n} right? (players "
                "is the number of hands)" if isinstance(given, list) and len(given) != n
                and isinstance(dealer, int) and 0 <= dealer < len(given) else "")
        raise RulesError("dealer", "dealer out of range",
                         f"dealer {json.dumps(dealer)} with {n} players: seats 0 to "
                         f"{n - 1}{hint}")

    raw_hands = data.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != n:
        got = (f"{len(raw_hands)} hands for {n} players" if isinstance(raw_hands, list)
               else f"hands missing: a list of {n} hands" if raw_hands is None
               else f"hands is {json_kind(raw_hands)}, not a list of {n} hands")
        raise ParseError("hands", "wrong number of hands", got)
    raw_dead = data.get("dead")
    if raw_dead is None:
        raw_dead = []
    if not isinstance(raw_dead, list):
        raise ParseError("dead", "wrong number of cards",
                         f"dead is {json_kind(raw_dead)}, not a list of cards")

    # card syntax: hands, then dead
    hands: list[list[int]] = []
    for i, row in enumerate(raw_hands):
        if not isinstance(row, list):
            raise ParseError("hands", "wrong number of cards",
                             f"hands[{i}] is {json_kind(row)}, not a list of cards")
        hands.append([card_at(text, "hands", f"hands[{i}][{j}]") for j, text in enumerate(row)])
    dead = [card_at(text, "dead", f"dead[{j}]") for j, text in enumerate(raw_dead)]

    # cards in the deck, duplicates, cards per hand (the play core's one deal check)
    check_deal(rules, split_sets(rules, hands), dead)
    # dead count
    n_dead = 1 if rules.keep_dead_card else 0
    if len(dead) != n_dead:
        raise ParseError("dead", "wrong number of cards",
                         f"dead has {len(dead)}, expected {n_dead}")

    # turn-up: the dealer's last card (with sets, the last card of the last set)
    last = hands[dealer][-1]
    raw_turnup = data.get("turnup")
    if raw_turnup is None:
        turnup = last
    else:
        turnup = card_at(raw_turnup, "turnup", "turnup")
        if turnup != last:
            raise ParseError("turnup", "turnup not dealer's last card",
                             f"turnup {format_card(turnup)}, dealer {dealer}'s last card is "
                             f"{format_card(last)}")

    # play length
    raw_play = data.get("play")
    if raw_play is None:
        raw_play = []
    if not isinstance(raw_play, list):
        raise ParseError("play", "malformed card",
                         f"play is {json_kind(raw_play)}, not a list of cards")
    if len(raw_play) > rules.n_dealt:
        raise IllegalPlayError("play", "play longer than deal",
                               f"{len(raw_play)} cards played, {rules.n_dealt} dealt")
    return dealer, hands, dead, turnup, raw_play


# ------------------------------------------------------------------------------ play
def _play_deal(rules: Rules, dealer: int, hands: list[list[int]], turnup: int,
               raw_play: list) -> PlayState:
    """Play the record card by card through :class:`~catchten_sim.state.PlayState`, which
    checks each card (docs/rules.md checking order: played twice, not in hand, exposed trump,
    trump led first, revoke). The first revoke is kept, not raised (§7.3); a revoke in an
    unfinished last trick still counts. Only completed tricks are scored (§7.1).
    """
    state = PlayState.from_hands(rules, dealer, hands, turnup=turnup)
    for pos, text in enumerate(raw_play):
        state.play(card_at(text, "play", f"play[{pos}]"), allow_revoke=True)
    if state.revoke is not None:
        rev = state.revoke
        state.revoke = {"seat": rev["seat"], "trick": rev["trick"], "card": rev["card"],
                        "penalty": rules.revoke_penalty}
        if "set" in rev:
            state.revoke["set"] = rev["set"]
    return state


# ------------------------------------------------------------------------------ scoring
def _apply_penalty(rules: Rules, unit: list[dict], side: int) -> dict:
    """Apply the revoke penalty to one unit's scores in place (§3 revoke, §7.3, §7.4).

    ``game``: totals unchanged (the side loses the game). ``hand``: the revoking side's
    total for the unit is lost. ``forfeit``: it goes to each opposing side as well (step
    by step, so that a count-out sees the same points). Returns ``revoke.effect``.
    """
    penalty = rules.revoke_penalty
    if penalty == "game":
        return {"loses_game": side}
    lost = unit[side]["total"]
    lost_steps = list(unit[side]["steps"])
    for s in unit:
        s["made"] = s["total"]
    unit[side]["total"] = 0
    unit[side]["steps"] = [0] * N_STEPS
    effect: dict[str, Any] = {"side": side, "points_lost": lost}
    if penalty == "forfeit":
        to = {}
        for other, s in enumerate(unit):
            if other == side:
                continue
            s["total"] += lost
            s["steps"] = [a + b for a, b in zip(s["steps"], lost_steps)]
            to[str(other)] = lost
        effect["points_to"] = to
    return effect


class _ScoredDeal:
    """A validated, played and scored hand record (internal; games use the units)."""

    def __init__(self, data: dict, rules: Rules) -> None:
        self.rules = rules
        self.dealer, self.hands, self.dead, self.turnup, raw_play = _parse_deal(data, rules)
        self.trump = self.turnup // 13
        self.state = _play_deal(rules, self.dealer, self.hands, self.turnup, raw_play)
        self.table = self.state.table
        self.tricks = self.state.tricks
        self.revoke = self.state.revoke
        self.play = [parse_card(c) for c in raw_play]
        self.finished = self.state.finished
        self.set_tricks = [self.state.set_tricks(s) for s in range(rules.n_sets)]
        # scoring units: each set with per-set scoring, else the whole deal
        self.unit_tricks = [self.state.unit_tricks(u) for u in range(self.state.n_units)]
        self.unit_size = rules.set_size if rules.per_set_scoring else rules.cards_per_player
        self.units = [self.state.unit_scores(u) for u in range(self.state.n_units)]
        if self.revoke is not None:
            side = rules.side_of(self.revoke["seat"])
            self.revoke["side"] = side
            u = self.revoke["set"] - 1 if rules.per_set_scoring else 0  # §7.4
            self.revoke["effect"] = _apply_penalty(rules, self.units[u], side)

    def output(self) -> dict:
        """The docs/formats.md "Score output"."""
        r = self.rules
        with_sets = r.n_sets > 1
        penalised = self.revoke is not None and r.revoke_penalty != "game"
        sides = []
        for side in range(r.n_sides):
            d = {"side": side, "seats": r.seats_of(side)}
            for key in ("honours", "cards_taken", "card_points", "total"):
                d[key] = sum(u[side][key] for u in self.units)
            if penalised:
                d["made"] = sum(u[side].get("made", u[side]["total"]) for u in self.units)
            sides.append(d)
        holder = self.state.ten_holder()
        taken_by = self.state.ten_taker
        caught = None
        if holder is not None and taken_by is not None:
            caught = r.side_of(taken_by) != r.side_of(holder)
        tricks = []
        for t in self.tricks:
            d = {"leader": t.leader, "cards": [format_card(c) for c in t.cards],
                 "winner": t.winner}
            if with_sets:
                d["set"] = t.set
            tricks.append(d)
        out: dict[str, Any] = {
            "finished": self.finished,
            "trumps": SUIT_CHARS[self.trump],
            "tricks": tricks,
            "sides": sides,
            "ten": {"holder": holder, "taken_by": taken_by, "caught": caught},
            "revoke": _copy_revoke(self.revoke),
        }
        if with_sets:
            out["sets"] = [self._set_output(s) for s in range(r.n_sets)]
        return out

    def _set_output(self, s: int) -> dict:
        r = self.rules
        if r.per_set_scoring:
            scores = self.units[s]
        else:  # §7.5: per-deal scoring gives honours and cards per set only
            scores = unit_scores(r, self.table, self.set_tricks[s])
        sides = []
        for side in range(r.n_sides):
            sc = scores[side]
            d = {"side": side, "honours": sc["honours"], "cards_taken": sc["cards_taken"],
                 "card_points": sc["card_points"] if r.per_set_scoring else None,
                 "total": sc["total"] if r.per_set_scoring else None}
            if "made" in sc:
                d["made"] = sc["made"]
            sides.append(d)
        return {"set": s + 1, "finished": len(self.set_tricks[s]) == r.set_size,
                "sides": sides}


def _copy_revoke(revoke: dict | None) -> dict | None:
    if revoke is None:
        return None
    out = dict(revoke)
    if "effect" in out:
        out["effect"] = json.loads(json.dumps(out["effect"]))
    return out


def score_record(data: dict) -> dict:
    """Validate and score a hand record (docs/formats.md "Hand record" -> "Score output").

    Parameters
    ----------
    data : dict
        The record (``rules``, ``variants``, ``players``, ``dealer``, ``hands``, ``turnup``,
        ``dead``, ``play``).

    Returns
    -------
    dict
        ``finished``, ``trumps``, ``tricks`` (``leader``, ``cards``, ``winner``; ``set`` with
        sets), ``sides`` (``side``, ``seats``, ``honours``, ``cards_taken``,
        ``card_points``, ``total``; ``made`` when a ``hand``/``forfeit`` penalty applied),
        ``ten`` (``holder``, ``taken_by`` as seats, ``caught``), ``revoke`` and, with sets,
        ``sets``. A partial record scores its completed tricks only (§7.1).

    Raises
    ------
    CatchTenError
        The first fault in the checking order (docs/rules.md, end).
    """
    _check_record_keys(data, HAND_KEYS)
    rules = rules_of_record(data)
    return _ScoredDeal(data, rules).output()


def hand_from_record(data: dict) -> tuple[Rules, int, list[list[list[int]]], int, list[int],
                                          list[int]]:
    """A validated hand record as plain values, for code that replays it.

    Returns
    -------
    (rules, dealer, set_hands, turnup, dead, play)
        ``set_hands[k][seat]``: the seat's card indices in set ``k`` (one set unless dealt in
        six-card sets); ``turnup``: card index; ``dead``: laid-aside card indices; ``play``:
        the card indices in the order played (it may contain a revoke, which is legal to
        record; every other fault raises).

    Raises
    ------
    CatchTenError
        As :func:`score_record`.
    """
    _check_record_keys(data, HAND_KEYS)
    rules = rules_of_record(data)
    deal = _ScoredDeal(data, rules)
    size = rules.set_size
    set_hands = [[list(h[k * size:(k + 1) * size]) for h in deal.hands]
                 for k in range(rules.n_sets)]
    return rules, deal.dealer, set_hands, deal.turnup, list(deal.dead), list(deal.play)


# ------------------------------------------------------------------------------ games
class _Game:
    """Running totals and the result of a game being scored (docs/rules.md §2, §3, §7.9-§7.14)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.running = [0] * rules.n_sides
        self.result: dict[str, Any] = {}     # empty while the game goes on
        self.tie_seen = False  # tie=replay: a tie has already been replayed

    def win(self, side: int, how: str, step: str | None, hand: int, where: dict) -> None:
        self.result = {"winner": side, "how": how, "step": step, "hand": hand, **where}

    def end_of_unit(self, before: list[int], unit: list[dict], hand: int, where: dict) -> None:
        """The target check after a scoring unit (§7.9) and the tie rule (§2, §3, §7.10-11)."""
        r = self.rules
        reached = [s for s in range(r.n_sides) if self.running[s] >= r.target]
        if not reached:
            return
        if len(reached) == 1:
            self.win(reached[0], "reached", None, hand, where)
            return
        if r.tie == "count_out":
            side, step = _count_out(r, before, [u["steps"] for u in unit], self.running)
            self.win(side, "count_out", step, hand, where)
            return
        self._higher_total(reached, hand, where)

    def _higher_total(self, reached: list[int], hand: int, where: dict) -> None:
        if self.rules.tie == "replay" and not self.tie_seen:
            self.tie_seen = True  # always another hand the first time
            return
        best = max(self.running[s] for s in reached)
        top = [s for s in reached if self.running[s] == best]
        if len(top) == 1:
            self.win(top[0], "higher_total", None, hand, where)
        else:
            self.tie_seen = True  # equal totals: another hand (§7.11)

    def revoke_loss(self, loser: int, hand: int, where: dict) -> None:
        """§7.12, §7.4: the revoker loses; the best other running total wins (lowest side on
        a tie)."""
        others = [s for s in range(self.rules.n_sides) if s != loser]
        winner = max(others, key=lambda s: (self.running[s], -s))
        self.win(winner, "revoke", None, hand, where)
        self.result["loser"] = loser


def _count_out(rules: Rules, before: list[int], steps: list[list[int]],
               final: list[int]) -> tuple[int, str]:
    """§7.10: from the totals before the unit add its points step by step; the first side to
    reach the target wins. Several at one step: fewer points needed, then the higher final
    total, then the lower side number."""
    current = list(before)
    for k, name in enumerate(COUNT_OUT_STEPS):
        reached = []
        for side in range(rules.n_sides):
            new = current[side] + steps[side][k]
            if current[side] < rules.target <= new:
                reached.append((rules.target - current[side], -final[side], side))
            current[side] = new
        if reached:
            return min(reached)[2], name
    raise AssertionError("count-out called without a side reaching the target")


def _where(rules: Rules, set_no: int, trick: int) -> dict:
    """``set``/``trick`` of the game output: with sets, or with game_at_once."""
    out: dict[str, int] = {}
    if rules.n_sets > 1:
        out["set"] = set_no
    if rules.n_sets > 1 or rules.game_at_once:
        out["trick"] = trick
    return out


def _play_game_hand(game: _Game, deal: _ScoredDeal, k: int) -> None:
    """Add one scored hand to the game, scoring unit by scoring unit."""
    r = game.rules
    revoke = deal.revoke
    at_once = r.game_at_once
    n_units = len(deal.units)
    for u in range(n_units):
        unit = deal.units[u]
        tricks = deal.unit_tricks[u]
        finished = len(tricks) == deal.unit_size
        last_trick = (u + 1) * deal.unit_size - 1
        last_set = u + 1 if r.per_set_scoring else r.n_sets
        revoke_here = (revoke is not None and r.revoke_penalty == "game"
                       and (not r.per_set_scoring or revoke["set"] == u + 1))
        before = list(game.running)
        if at_once:
            # §7.13: honours count the moment their trick is taken
            stop = revoke["trick"] if revoke is not None and revoke_here else None
            for t in tricks:
                if stop is not None and t.index >= stop:
                    break
                side = r.side_of(t.winner)
                game.running[side] += sum(deal.table.honours[c] for c in t.cards)
                if game.running[side] >= r.target:
                    game.win(side, "reached", None, k, _where(r, t.set, t.index))
                    return
            if not finished:
                game.running = before  # §7.14: an unfinished unit adds nothing
                return
            honours_in = [before[s] + unit[s]["honours"] for s in range(r.n_sides)]
            game.running = [before[s] + unit[s]["total"] for s in range(r.n_sides)]
            where = _where(r, last_set, last_trick)
            if revoke is not None and revoke_here:
                game.revoke_loss(revoke["side"], k, where)
                return
            # card points at the end of the unit
            new = [s for s in range(r.n_sides) if honours_in[s] < r.target <= game.running[s]]
            if len(new) == 1:
                game.win(new[0], "reached", None, k, where)
            elif len(new) > 1 and r.tie == "count_out":
                best = min(new, key=lambda s: (r.target - honours_in[s], -game.running[s], s))
                game.win(best, "count_out", "cards", k, where)
            elif len(new) > 1:
                game._higher_total([s for s in range(r.n_sides)
                                    if game.running[s] >= r.target], k, where)
            else:
                game.end_of_unit(before, unit, k, where)
        else:
            if not finished:
                return  # §7.14: an unfinished unit adds nothing
            game.running = [before[s] + unit[s]["total"] for s in range(r.n_sides)]
            where = _where(r, last_set, last_trick)
            if revoke is not None and revoke_here:
                game.revoke_loss(revoke["side"], k, where)
                return
            game.end_of_unit(before, unit, k, where)
        if game.result:
            return


_HAND_KEY_WHY = {"rules": "unknown preset", "variants": "bad variant value",
                 "players": "players out of range"}


def _hand_of_game(data: dict, rules: Rules, k: int, hand: Any) -> dict:
    """Hand ``k`` of a game record with the game's rules filled in (§7.14)."""
    if not isinstance(hand, dict):
        raise ParseError("hands", "wrong number of hands",
                         f"hands[{k}] is {json_kind(hand)}, not a hand record (an object with "
                         "dealer and hands)")
    check_keys(hand, HAND_KEYS, f"hands[{k}]", pointer=FORMATS_POINTER)
    rec = dict(hand)
    for key in ("rules", "variants", "players"):
        mine = rec.get(key)
        if mine is None:
            rec[key] = data.get(key)
            continue
        if key == "rules":
            same = isinstance(mine, str) and mine.strip().lower() == rules.preset
        elif key == "players":
            same = not isinstance(mine, bool) and isinstance(mine, int) and mine == rules.players
        else:
            try:
                same = dict(Rules(rules.preset, rules.players, mine).variants) == \
                    dict(rules.variants)
            except CatchTenError as exc:
                raise type(exc)(exc.field, exc.why, f"hands[{k}]: {exc.detail}") from None
        if not same:
            raise RulesError(key, _HAND_KEY_WHY[key],
                             f"hands[{k}].{key}={mine!r} differs from the game's "
                             f"{data.get(key)!r}")
        rec[key] = data.get(key)
    return rec


def score_game(data: dict) -> dict:
    """Validate and score a game record (docs/formats.md "Game record" -> "Game score output").

    Rules: docs/rules.md §2 (target, count-out order), §3 (``tie``, ``game_at_once``), §7.9
    (reaching = total >= target, checked after each set with per-set scoring), §7.10
    (count-out), §7.11 (higher total), §7.12 (revoke, penalty ``game``), §7.13
    (``game_at_once``), §7.14 (unfinished last hand, hands after the end, inherited rules).

    Returns
    -------
    dict
        ``rules``, ``sides``, ``target``, ``hands_scored``, ``running`` (side totals after
        each hand), ``finished``, ``winner``, ``winner_seats`` (when there is a winner),
        ``how``, ``step``, ``hand``; ``set``/``trick`` with sets or ``game_at_once``;
        ``loser`` with ``how: "revoke"``.

    Raises
    ------
    CatchTenError
        The first fault; a fault inside hand ``k`` names ``hands[k]`` in its detail;
        ``hands`` / ``hands after game end`` for a hand recorded after the game was decided.
    """
    _check_record_keys(data, GAME_KEYS)
    rules = rules_of_record(data)
    variants = data.get("variants") or {}
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise ParseError("hands", "wrong number of hands",
                         f"hands is {json_kind(hands)}: a game record's hands are a list of "
                         "hand records")
    game = _Game(rules)
    running: list[list[int]] = []
    for k, hand in enumerate(hands):
        if game.result:
            raise IllegalPlayError("hands", "hands after game end",
                                   f"hands[{k}] after the game was decided in hand "
                                   f"{game.result['hand']}")
        rec = _hand_of_game(data, rules, k, hand)
        try:
            deal = _ScoredDeal(rec, rules)
        except CatchTenError as exc:
            raise type(exc)(exc.field, exc.why, f"hands[{k}]: {exc.detail}") from None
        _play_game_hand(game, deal, k)
        running.append(list(game.running))
    out: dict[str, Any] = {
        "rules": {"preset": rules.preset, "players": rules.players,
                  "variants": {str(name): rules.variants[str(name)] for name in variants}},
        "sides": [{"side": s, "seats": rules.seats_of(s)} for s in range(rules.n_sides)],
        "target": rules.target,
        "hands_scored": len(running),
        "running": running,
    }
    res = game.result
    if not res:
        out.update(finished=False, winner=None, how="unfinished", step=None, hand=None)
    else:
        out.update(finished=True, winner=res["winner"],
                   winner_seats=rules.seats_of(res["winner"]), how=res["how"],
                   step=res["step"], hand=res["hand"])
        for key in ("set", "trick", "loser"):
            if key in res:
                out[key] = res[key]
    return out


# ------------------------------------------------------------------------------ either
def is_game_record(data: Any) -> bool:
    """True when ``data`` has the shape of a game record: its ``hands`` are hand records
    (objects), where a hand record's ``hands`` are lists of cards and it has a ``dealer``.

    Without a ``dealer``, a record is a game record unless its ``hands`` hold a list (a
    hand record's cards): so a malformed ``hands`` (``"x"``, ``[1, 2]``, ``[{...}, "x"]``,
    ``[]``, ``[{...}, ["JS"]]``) is checked, and named, as the game's ``hands`` rather than
    reported as a hand record's missing ``dealer``. A record with no ``hands`` at all is a
    hand record."""
    if not isinstance(data, dict) or "hands" not in data:
        return False
    hands = data["hands"]
    listed = hands if isinstance(hands, list) else []
    has_record = any(isinstance(h, dict) for h in listed)
    if "dealer" in data:
        return has_record and all(isinstance(h, dict) for h in listed)
    return has_record or not any(isinstance(h, list) for h in listed)


def record_kind(data: Any) -> str:
    """Which docs/formats.md input ``data`` looks like, for messages: ``"game record"``
    (:func:`is_game_record`), ``"position"`` (a ``seat`` or ``hand``, no ``hands``), else
    ``"hand record"`` (what a malformed record is checked as)."""
    if is_game_record(data):
        return "game record"
    if isinstance(data, dict) and "hands" not in data and ("seat" in data or "hand" in data):
        return "position"
    return "hand record"


def score_any(data: dict) -> dict:
    """Score a hand record or a game record, told apart by :func:`is_game_record` (a
    position is refused as what it is, not by its first unknown field)."""
    if record_kind(data) == "position":
        raise ParseError("record", "not a record", "this is a position; try catchten advise")
    return score_game(data) if is_game_record(data) else score_record(data)
