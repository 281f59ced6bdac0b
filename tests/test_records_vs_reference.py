"""records.py and the independent reference (tests/reference.py) agree on random games.

Random game records (kernel deals, cards chosen among PlayState's legal cards, now and then a
revoke, a partial last hand, small targets so that games end) are scored by both
``records.score_game`` and ``reference.score_game``, hand by hand with ``score_record`` too.
The reference scores hands as step ledgers and games as a scoreboard simulation, a different
shape from records.py, so a slip in either shows here.
"""
from __future__ import annotations

import random

import pytest

from catchten_sim import records
from catchten_sim.cards import format_card
from catchten_sim.errors import CatchTenError
from catchten_sim.play import deal
from catchten_sim.rules import Rules

import reference as ref  # noqa: E402

GAMES = 12

CONFIGS = [
    ("foster", 4, {}),
    ("foster", 4, {"game_at_once": True}),
    ("foster", 4, {"revoke": "hand", "tie": "higher_total"}),
    ("foster", 4, {"revoke": "forfeit", "tie": "replay", "ten_of_diamonds_bonus": True}),
    ("foster", 4, {"everyone_alone": True, "game_at_once": True}),
    ("foster", 2, {}),
    ("foster", 2, {"set_scoring": "per_deal", "revoke": "forfeit"}),
    ("foster", 2, {"game_at_once": True, "exposed_trump": True}),
    ("foster", 3, {"revoke": "hand", "no_trump_first_lead": True}),
    ("foster", 3, {"game_at_once": True, "tie": "higher_total"}),
    ("foster", 5, {"keep_six_of_spades": True, "must_trump": True}),
    ("foster", 6, {}),
    ("foster", 6, {"revoke": "forfeit", "card_points": "off"}),
    ("jaques", 4, {}),
    ("jaques", 6, {"tie": "count_out"}),
    ("french52", 4, {"game_at_once": True}),
]

RESULT_KEYS = ("finished", "winner", "how", "step", "hand", "running", "hands_scored", "set",
               "trick", "loser")
SIDE_KEYS = ("side", "seats", "honours", "cards_taken", "card_points", "total", "made")


def _hand(rules: Rules, rng: random.Random, index: int, revoke_p: float) -> dict:
    """A hand record: deal ``index`` (dealer ``index % n``), legal cards but now and then a
    revoke (a card off the led suit while holding it)."""
    d = deal(rules, seed=rng.randrange(2 ** 32), index=index)
    state = d.play_state()
    while not state.finished:
        legal = state.legal_cards()
        seat = state.to_move
        wrong = [c for c in sorted(state.hands[seat])
                 if c not in legal and c != state.locked_turnup(seat)]
        card = (rng.choice(wrong) if state.trick and wrong and rng.random() < revoke_p
                else rng.choice(legal))
        state.play(card, allow_revoke=True)
    rec = d.to_record([int(c) for c in state.played])
    del rec["rules"], rec["variants"], rec["players"]   # inherited from the game (§7.14)
    return rec


def _game(preset: str, players: int, variants: dict, rng: random.Random) -> dict:
    variants = dict(variants, target=rng.choice((11, 21, 31)))
    rules = Rules(preset, players, variants)
    game = {"rules": preset, "players": players, "variants": variants, "hands": []}
    for k in range(30):
        game["hands"].append(_hand(rules, rng, k, revoke_p=0.05))
        if records.score_game(game)["finished"]:
            break
    if rng.random() < 0.3:          # a partial last hand
        last = game["hands"][-1]
        last["play"] = last["play"][:rng.randrange(len(last["play"]))]
    return game


def _same_hand(rec: dict, game: dict) -> None:
    full = dict(rec, rules=game["rules"], players=game["players"], variants=game["variants"])
    mine, theirs = records.score_record(full), ref.score_record(full)
    assert mine["revoke"] == theirs["revoke"], full
    assert [{k: s.get(k) for k in SIDE_KEYS} for s in mine["sides"]] == \
        [{k: s.get(k) for k in SIDE_KEYS} for s in theirs["sides"]], full
    assert mine.get("sets") == theirs.get("sets"), full


@pytest.mark.parametrize("preset,players,variants", CONFIGS,
                         ids=[f"{p}{n}-" + "-".join(f"{k}={v}" for k, v in sorted(var.items()))
                              for p, n, var in CONFIGS])
def test_records_and_reference_score_the_same_games(preset, players, variants) -> None:
    rng = random.Random(f"{preset}{players}{sorted(variants.items())}")
    revokes = 0
    for _ in range(GAMES):
        game = _game(preset, players, variants, rng)
        mine = records.score_game(game)
        theirs = ref.score_game(game)
        assert {k: mine.get(k) for k in RESULT_KEYS} == {k: theirs.get(k) for k in RESULT_KEYS}, \
            game
        for rec in game["hands"]:
            _same_hand(rec, game)
            revokes += records.score_record(dict(rec, rules=preset, players=players,
                                                 variants=game["variants"]))["revoke"] is not None
    assert revokes > 0   # the penalties were exercised


def test_both_refuse_a_hand_after_the_game_end() -> None:
    rng = random.Random(5)
    game = _game("foster", 4, {}, rng)
    if not records.score_game(game)["finished"]:
        pytest.skip("this seed's game did not finish")
    game["hands"].append(_hand(Rules("foster", 4, game["variants"]), rng, 40, 0.0))
    with pytest.raises(CatchTenError) as mine:
        records.score_game(game)
    with pytest.raises(ref.RefError) as theirs:
        ref.score_game(game)
    assert (mine.value.field, mine.value.why) == (theirs.value.field, theirs.value.why)
    assert format_card(0) == "2S"
