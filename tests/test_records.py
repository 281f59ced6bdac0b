"""Tests of catchten_sim.records: the worked cases, then one test per rule clause.

The worked cases live in tests/cases (tests/cases/README.md says how to
compare them). The focused tests use small hand-written deals whose results were worked
out by hand from docs/rules.md; the arithmetic is written next to each assertion.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from catchten_sim import records
from catchten_sim.errors import CatchTenError, ParseError
from catchten_sim.records import (hand_from_record, is_game_record, load_record, score_any,
                                  score_game, score_record)

CASES = Path(__file__).resolve().parent / "cases"
GROUPS = ("score", "illegal", "games")


def _case_names() -> list[str]:
    names = []
    for group in GROUPS:
        folder = CASES / group
        if folder.is_dir():
            for p in sorted(folder.glob("*.expected.json")):
                names.append(f"{group}/{p.name[:-len('.expected.json')]}")
    # never skip: a missing case folder is a failing test with a clear message
    return names or ["<missing>"]


@pytest.mark.parametrize("name", _case_names())
def test_worked_case(name: str) -> None:
    assert name != "<missing>", f"no worked cases found under {CASES} (expected tests/cases" \
                                f" with {', '.join(GROUPS)}/)"
    group, stem = name.split("/")
    record = json.loads((CASES / group / f"{stem}.json").read_text())
    expected = json.loads((CASES / group / f"{stem}.expected.json").read_text())
    if expected.get("kind") == "error":
        with pytest.raises(CatchTenError) as info:
            score_any(record)
        assert (info.value.field, info.value.why) == (expected["field"], expected["why"])
        return
    got = score_any(record)
    if expected.get("kind") == "revoke":
        for key in ("seat", "trick", "card", "penalty"):
            assert got["revoke"][key] == expected["revoke"][key], key
        assert [s["total"] for s in got["sides"]] == \
            [s["total"] for s in expected["score"]["sides"]]
        return
    if group == "games":
        keys = ["winner", "how", "step", "hand", "running"]
        if expected["rules"]["variants"].get("game_at_once"):
            keys.append("trick")
        for key in keys:
            assert got.get(key) == expected.get(key), key
        return
    assert got["finished"] == expected["finished"]
    assert len(got["tricks"]) == len(expected["tricks"])
    for g, e in zip(got["tricks"], expected["tricks"]):
        assert (g["leader"], g["cards"], g["winner"]) == (e["leader"], e["cards"], e["winner"])
    side_keys = ("side", "seats", "honours", "cards_taken", "card_points", "total")
    assert [{k: s[k] for k in side_keys} for s in got["sides"]] == \
        [{k: s[k] for k in side_keys} for s in expected["sides"]]
    for key in ("holder", "taken_by", "caught"):
        assert got["ten"][key] == expected["ten"][key], key
    assert got["revoke"] == expected["revoke"]
    if "sets" in expected:
        set_keys = ("side", "honours", "cards_taken", "card_points", "total")
        assert [[{k: s[k] for k in set_keys} for s in st["sides"]] for st in got["sets"]] == \
            [[{k: s[k] for k in set_keys} for s in st["sides"]] for st in expected["sets"]]


def test_cases_folder_is_present() -> None:
    assert (CASES / "README.md").is_file(), f"worked cases missing: {CASES}"
    assert all((CASES / g).is_dir() for g in GROUPS)


# ------------------------------------------------------------------------------ deals
# Deal A (4 players, dealer 3, turn-up TH: hearts are trumps; the dealer holds every honour).
DEAL_A = {
    "rules": "foster", "variants": {}, "players": 4, "dealer": 3,
    "hands": [["AS", "KS", "QS", "AC", "KC", "QC", "6H", "7D", "8D"],
              ["JS", "TS", "9S", "JC", "TC", "9C", "7H", "9D", "TD"],
              ["8S", "7S", "6S", "8C", "7C", "6C", "8H", "AD", "KD"],
              ["QD", "JD", "6D", "JH", "AH", "KH", "QH", "9H", "TH"]],
    "turnup": "TH", "dead": [], "play": [],
}
# trick 0: AS 9S 6S 6D (seat 3 void in spades) -> AS, seat 0
A_TRICK0 = ["AS", "9S", "6S", "6D"]
# trick 1 (seat 0 leads): AC; seat 1 trumps with 7H while holding JC TC 9C (a revoke);
# seat 2 6C; seat 3 (void in clubs) JH -> JH, seat 3: side 1 takes JH (11), 4 cards.
A_TRICK1_REVOKE = ["AC", "7H", "6C", "JH"]

# Deal B (4 players, dealer 3, turn-up TH is the dealer's only heart).
DEAL_B = {
    "rules": "foster", "variants": {}, "players": 4, "dealer": 3,
    "hands": [["AS", "KS", "QS", "AC", "KC", "QC", "JH", "AH", "7H"],
              ["JS", "TS", "9S", "JC", "TC", "9C", "KH", "QH", "6H"],
              ["8S", "7S", "6S", "8C", "7C", "6C", "9H", "8H", "7D"],
              ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "6D", "TH"]],
    "turnup": "TH", "dead": [],
    # winners: 0 0 1 0 0 0 0 3 3 (see test_exposed_trump_full_hand)
    "play": ["JH", "6H", "9H", "6D",   # t0 seat 0 leads; dealer discards (TH locked)
             "AH", "QH", "8H", "8D",   # t1 AH wins (AH 4 + QH 2)
             "7H", "KH", "7D", "9D",   # t2 KH wins, seat 1 (KH 3)
             "JS", "8S", "AD", "AS",   # t3 seat 1 leads; AS wins
             "KS", "TS", "7S", "KD",   # t4
             "QS", "9S", "6S", "QD",   # t5
             "AC", "9C", "6C", "JD",   # t6
             "KC", "TC", "7C", "TH",   # t7 the turn-up may now be played: TH wins, seat 3
             "TD", "QC", "JC", "8C"],  # t8 seat 3 leads TD, wins
}
# By hand, deal B: side 0 (seats 0, 2) takes t0 t1 t3 t4 t5 t6 = 24 cards, honours JH 11 +
# AH 4 + QH 2 = 17, card points 24 - 18 = 6, total 23. Side 1 takes t2 t7 t8 = 12 cards,
# honours KH 3 + TH 10 = 13, no card points, total 13.


def deal_b(**variants) -> dict:
    rec = copy.deepcopy(DEAL_B)
    rec["variants"] = dict({"exposed_trump": True}, **variants)
    return rec


def deal_b_rotated(**variants) -> dict:
    """Deal B moved one seat to the left (dealer 0): the two sides swap their scores."""
    rec = deal_b(**variants)
    h = rec["hands"]
    rec["hands"] = [h[3], h[0], h[1], h[2]]
    rec["dealer"] = 0
    return rec


# Deal S (2 players in three six-card sets, dealer 1, turn-up 9D: diamonds are trumps).
DEAL_S = {
    "rules": "foster", "variants": {}, "players": 2, "dealer": 1,
    "hands": [["AS", "KS", "QS", "JS", "TS", "9S", "AC", "KC", "QC", "JC", "TC", "9C",
               "AH", "KH", "8D", "7D", "6D", "6H"],
              ["8S", "7S", "6S", "8C", "7C", "6C", "8H", "7H", "9H", "TH", "QH", "JH",
               "AD", "KD", "QD", "JD", "TD", "9D"]],
    "turnup": "9D", "dead": [],
    "play": ["AS", "8S", "KS", "7S", "QS", "6S", "JS", "8C", "TS", "7C", "9S", "6C",  # set 1
             "AC", "8H", "KC", "7H", "QC", "9H", "JC", "TH", "TC", "QH", "9C", "JH",  # set 2
             "AH", "9D", "TD", "6D", "JD", "7D", "QD", "8D", "KD", "KH", "AD", "6H"],  # set 3
}
# By hand, deal S: seat 0 wins all of sets 1 and 2 (12 cards each, no trumps: 12 - 6 = 6
# card points per set). Set 3: seat 1 trumps AH with 9D and wins every trick: 12 cards
# (6 card points) and TD 10 + JD 11 + QD 2 + KD 3 + AD 4 = 30 honours, total 36.


def deal_s(**variants) -> dict:
    rec = copy.deepcopy(DEAL_S)
    rec["variants"] = dict(variants)
    return rec


def error_of(fn, rec) -> tuple[str, str]:
    with pytest.raises(CatchTenError) as info:
        fn(rec)
    return info.value.field, info.value.why


def totals(out: dict) -> list[int]:
    return [s["total"] for s in out["sides"]]


# ------------------------------------------------------------------------------ scoring
def test_exposed_trump_full_hand() -> None:
    out = score_record(deal_b())
    assert out["finished"] is True
    assert out["trumps"] == "H"
    assert [t["winner"] for t in out["tricks"]] == [0, 0, 1, 0, 0, 0, 0, 3, 3]
    assert [t["leader"] for t in out["tricks"]] == [0, 0, 0, 1, 0, 0, 0, 0, 3]
    s0, s1 = out["sides"]
    assert (s0["seats"], s0["honours"], s0["cards_taken"], s0["card_points"], s0["total"]) == \
        ([0, 2], 17, 24, 6, 23)
    assert (s1["seats"], s1["honours"], s1["cards_taken"], s1["card_points"], s1["total"]) == \
        ([1, 3], 13, 12, 0, 13)
    assert out["ten"] == {"holder": 3, "taken_by": 3, "caught": False}
    assert out["revoke"] is None


def test_exposed_turnup_not_counted_for_revoke() -> None:
    # §7.3: in trick 0 the dealer discards 6D while his only heart is the locked turn-up
    assert score_record(deal_b())["revoke"] is None
    # without exposed_trump the same discard is a revoke (he holds TH, hearts were led)
    rec = deal_b()
    rec["variants"] = {}
    out = score_record(rec)
    assert out["revoke"] == {"seat": 3, "trick": 0, "card": "6D", "penalty": "game",
                             "side": 1, "effect": {"loses_game": 1}}
    assert totals(out) == [23, 13]  # penalty game leaves the hand's totals unchanged


def test_exposed_trump_played_early_is_error() -> None:
    rec = deal_b()
    rec["play"] = ["JH", "6H", "9H", "TH"]
    assert error_of(score_record, rec) == ("play", "exposed trump played early")
    rec["variants"] = {}  # without the switch, TH simply follows suit
    out = score_record(rec)
    assert out["tricks"][0]["winner"] == 0  # JH beats TH


def test_partial_record_scores_completed_tricks_only() -> None:
    # §7.1: trick 0 (AS wins, 4 cards to side 0) and trick 1 (JH wins, side 1: 11 honours);
    # trick 2 is unfinished (two cards) and scores nothing.
    rec = copy.deepcopy(DEAL_A)
    rec["play"] = A_TRICK0 + A_TRICK1_REVOKE + ["QD", "7D"]
    out = score_record(rec)
    assert out["finished"] is False
    assert len(out["tricks"]) == 2
    assert [(s["honours"], s["cards_taken"], s["card_points"], s["total"])
            for s in out["sides"]] == [(0, 4, 0, 0), (11, 4, 0, 11)]


def test_ten_caught_is_null_while_not_taken() -> None:
    rec = copy.deepcopy(DEAL_A)
    out = score_record(rec)
    assert out["ten"] == {"holder": 3, "taken_by": None, "caught": None}
    assert out["finished"] is False and out["tricks"] == []


def test_ten_saved_when_holders_side_takes_it() -> None:
    # rotated deal B: TH is dealt to seat 0 (the dealer) and won back by seat 0 (a catch is
    # in the worked_example_1 case)
    out = score_record(deal_b_rotated())
    assert out["ten"] == {"holder": 0, "taken_by": 0, "caught": False}


def test_revoke_game_penalty_keeps_totals() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec["play"] = A_TRICK0 + A_TRICK1_REVOKE
    out = score_record(rec)
    assert out["revoke"] == {"seat": 1, "trick": 1, "card": "7H", "penalty": "game",
                             "side": 1, "effect": {"loses_game": 1}}
    assert totals(out) == [0, 11]
    assert "made" not in out["sides"][0]


def test_revoke_hand_penalty_loses_the_hands_points() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec["variants"] = {"revoke": "hand"}
    rec["play"] = A_TRICK0 + A_TRICK1_REVOKE
    out = score_record(rec)
    assert out["revoke"]["effect"] == {"side": 1, "points_lost": 11}
    assert totals(out) == [0, 0]
    assert [s["made"] for s in out["sides"]] == [0, 11]
    assert out["sides"][1]["honours"] == 11  # honours stay as made (§7.3)


def test_revoke_forfeit_points_go_to_opponents() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec["variants"] = {"revoke": "forfeit"}
    rec["play"] = A_TRICK0 + A_TRICK1_REVOKE
    out = score_record(rec)
    assert out["revoke"]["effect"] == {"side": 1, "points_lost": 11, "points_to": {"0": 11}}
    assert totals(out) == [11, 0]
    assert [s["made"] for s in out["sides"]] == [0, 11]


def test_revoke_forfeit_with_several_opposing_sides_each_score() -> None:
    # §7.4, everyone alone (4 sides): seat 1 revokes, seat 3 takes trick 1 (JH 11).
    # The revoker (side 1) made 0: nothing moves. Make seat 3 the revoker instead: on
    # deal B without exposed_trump, seat 3 discards 6D holding TH in trick 0.
    rec = deal_b(revoke="forfeit", everyone_alone=True)
    rec["variants"].pop("exposed_trump")
    out = score_record(rec)
    # by hand, alone (share 9): seat 0 24 cards -> 15 + 17 = 32; seat 1 KH 3; seat 2 0;
    # seat 3 8 cards, TH 10 -> 10. Seat 3's 10 go to each of seats 0, 1, 2.
    assert out["revoke"]["effect"] == {"side": 3, "points_lost": 10,
                                       "points_to": {"0": 10, "1": 10, "2": 10}}
    assert [s["made"] for s in out["sides"]] == [32, 3, 0, 10]
    assert totals(out) == [42, 13, 10, 0]


def test_revoke_first_only_is_reported_and_play_goes_on() -> None:
    rec = copy.deepcopy(DEAL_A)
    # trick 2: seat 3 leads QD; seat 0 holds 7D 8D but plays KS (a second revoke);
    # seat 1 9D, seat 2 AD -> AD wins (no trump), seat 2.
    rec["play"] = A_TRICK0 + A_TRICK1_REVOKE + ["QD", "KS", "9D", "AD"]
    out = score_record(rec)
    assert (out["revoke"]["seat"], out["revoke"]["trick"]) == (1, 1)
    assert out["tricks"][2]["winner"] == 2


def test_revoke_in_unfinished_last_trick_counts() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec["play"] = A_TRICK0 + ["AC", "7H"]
    out = score_record(rec)
    assert out["finished"] is False and len(out["tricks"]) == 1
    assert (out["revoke"]["seat"], out["revoke"]["trick"], out["revoke"]["card"]) == (1, 1, "7H")


def test_ten_of_diamonds_bonus_reported_in_honours() -> None:
    # §7.2: deal B with the bonus: TD (not a trump) is taken by seat 3 in trick 8: +10
    out = score_record(deal_b(ten_of_diamonds_bonus=True))
    assert [s["honours"] for s in out["sides"]] == [17, 23]
    assert totals(out) == [23, 23]


def test_card_points_off_scores_honours_only() -> None:
    out = score_record(deal_b(card_points="off"))
    assert totals(out) == [17, 13]


def test_everyone_alone_sides_are_seats() -> None:
    out = score_record(deal_b(everyone_alone=True))
    assert [s["seats"] for s in out["sides"]] == [[0], [1], [2], [3]]
    assert totals(out) == [32, 3, 0, 10]  # share 9 each (see the forfeit test)


# ------------------------------------------------------------------------------ sets
def test_sets_tricks_count_over_deal_and_last_winner_leads_next_set() -> None:
    out = score_record(deal_s())
    assert [t["set"] for t in out["tricks"]] == [1] * 6 + [2] * 6 + [3] * 6
    assert out["tricks"][6]["leader"] == 0      # seat 0 won trick 5
    assert out["tricks"][13]["leader"] == 1     # seat 1 trumped trick 12
    assert out["trumps"] == "D"


def test_per_set_scoring_share_six() -> None:
    out = score_record(deal_s())
    assert [[(s["card_points"], s["total"]) for s in st["sides"]] for st in out["sets"]] == \
        [[(6, 6), (0, 0)], [(6, 6), (0, 0)], [(0, 0), (6, 36)]]
    assert [(s["honours"], s["cards_taken"], s["card_points"], s["total"])
            for s in out["sides"]] == [(0, 24, 12, 12), (30, 12, 6, 36)]
    assert out["ten"] == {"holder": 1, "taken_by": 1, "caught": False}


def test_per_deal_scoring_sets_give_null_points() -> None:
    # share 18: seat 0 24 cards -> 6; seat 1 12 cards -> 0, honours 30
    out = score_record(deal_s(set_scoring="per_deal"))
    assert totals(out) == [6, 30]
    assert all(s["card_points"] is None and s["total"] is None
               for st in out["sets"] for s in st["sides"])
    assert [s["cards_taken"] for s in out["sets"][2]["sides"]] == [0, 12]


def test_small_deal_whole_has_no_sets() -> None:
    rec = deal_s(small_deal="whole")
    out = score_record(rec)
    # the same cards played as one 18-card hand: seat 0 still wins the first 12 tricks
    assert "sets" not in out and "set" not in out["tricks"][0]
    assert totals(out) == [6, 30]


def test_revoke_hand_penalty_per_set() -> None:
    # §7.4: seat 1 revokes in set 1 (plays 8C on AS while holding spades). Side 1 made
    # nothing in set 1, so the penalty takes nothing; its 36 of set 3 stand.
    for penalty in ("hand", "forfeit"):
        rec = deal_s(revoke=penalty)
        rec["play"] = ["AS", "8C", "KS", "8S", "QS", "7S", "JS", "6S", "TS", "7C", "9S",
                       "6C"] + rec["play"][12:]
        out = score_record(rec)
        assert out["revoke"]["set"] == 1 and out["revoke"]["trick"] == 0
        assert out["revoke"]["effect"]["points_lost"] == 0
        assert totals(out) == [12, 36]


def test_no_trump_first_lead_applies_to_every_set() -> None:
    rec = deal_s(no_trump_first_lead=True)
    assert score_record(rec)["revoke"] is None  # the recorded leads are not trumps
    rec["play"] = rec["play"][:24] + ["8D"]     # set 3's first lead: a trump
    assert error_of(score_record, rec) == ("play", "trump led first")


def test_trump_led_first_allowed_when_holding_only_trumps() -> None:
    # deal S with 9C and 8H swapped between the players' second sets: seat 1 wins trick 11
    # (JH over 8H) and leads set 3 holding only trumps (AD KD QD JD TD 9D).
    rec = deal_s(no_trump_first_lead=True, exposed_trump=True)
    rec["hands"][0][11], rec["hands"][1][6] = "8H", "9C"
    rec["play"] = rec["play"][:12] + [
        "AC", "9C", "KC", "7H", "QC", "9H", "JC", "TH", "TC", "QH", "8H", "JH",
        "AD", "6D", "KD", "7D", "QD", "8D", "JD", "AH", "TD", "KH", "9D", "6H"]
    out = score_record(rec)
    assert out["tricks"][12]["leader"] == 1
    # set 2: seat 0 takes 5 tricks (10 cards, 4 points), seat 1 one; set 3: seat 1 all,
    # 12 cards (6) + 30 honours. Totals: 6 + 4 = 10 and 36.
    assert totals(out) == [10, 36]
    # seat 0 leading a trump at the start of a set while holding other suits is refused
    assert error_of(score_record, deal_b(no_trump_first_lead=True)) == \
        ("play", "trump led first")


def test_exposed_trump_with_sets_waits_for_last_two_tricks() -> None:
    rec = deal_s(exposed_trump=True)
    # seat 1 plays the turn-up 9D in trick 12 (the deal's last two tricks are 16 and 17)
    assert error_of(score_record, rec) == ("play", "exposed trump played early")


# ------------------------------------------------------------------------------ checking
def test_checking_order_rules_before_variants_before_players() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec.update(rules="bogus", variants={"zzz": True}, players=9)
    assert error_of(score_record, rec) == ("rules", "unknown preset")
    rec["rules"] = "foster"
    assert error_of(score_record, rec) == ("variants", "unknown variant")
    rec["variants"] = {}
    assert error_of(score_record, rec) == ("players", "players out of range")
    # a combination of switches that cannot work is a variants fault, before players
    rec["variants"] = {"game_at_once": True, "revoke": "hand"}
    assert error_of(score_record, rec) == ("variants", "bad variant value")


def test_players_missing_is_error() -> None:
    rec = copy.deepcopy(DEAL_A)
    del rec["players"]
    assert error_of(score_record, rec) == ("players", "players out of range")


def test_dealer_declares_record_refused() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec.update(rules="jaques", variants={"dealer_declares": True})
    assert error_of(score_record, rec) == ("variants", "bad variant value")


def test_dealer_out_of_range() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec["dealer"] = 4
    assert error_of(score_record, rec)[0] == "dealer"


def test_wrong_number_of_hands() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec["hands"] = rec["hands"][:3]
    assert error_of(score_record, rec) == ("hands", "wrong number of hands")


def test_malformed_before_not_in_deck_and_hands_before_dead() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec["hands"][0][0] = "2C"     # not in a 36-card deck
    rec["hands"][1][0] = "10X"    # malformed: syntax is checked first
    rec["dead"] = ["QQ"]
    assert error_of(score_record, rec) == ("hands", "malformed card")
    rec["hands"][1][0] = "JS"
    assert error_of(score_record, rec) == ("dead", "malformed card")
    rec["dead"] = []
    assert error_of(score_record, rec) == ("hands", "card not in deck")


def test_duplicate_before_cards_per_hand() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec["hands"][1].append("AS")  # seat 1 has 10 cards, one of them seat 0's AS
    assert error_of(score_record, rec) == ("hands", "duplicate card")
    rec["hands"][1].pop()
    rec["hands"][1].append(rec["hands"][0].pop(0))
    with pytest.raises(CatchTenError) as info:
        score_record(rec)
    assert (info.value.field, info.value.why) == ("hands", "wrong number of cards")
    assert info.value.detail == "hands[0] has 8, expected 9"


def test_dead_count_with_keep_six_of_spades() -> None:
    rec = json.loads((CASES / "score" / "foster5_keep6_03.json").read_text())
    dead = rec["dead"]
    rec["dead"] = []
    assert error_of(score_record, rec) == ("dead", "wrong number of cards")
    # a dead Ten of trumps: nobody holds it (§7.7). Trumps are clubs here: swap TC in.
    rec["dead"] = dead
    for hand in rec["hands"]:
        if "TC" in hand:
            hand[hand.index("TC")] = dead[0]
    rec["dead"] = ["TC"]
    rec["play"] = []
    assert score_record(rec)["ten"] == {"holder": None, "taken_by": None, "caught": None}


def test_turnup_must_be_dealers_last_card() -> None:
    rec = copy.deepcopy(DEAL_A)
    rec["turnup"] = "QD"
    assert error_of(score_record, rec) == ("turnup", "turnup not dealer's last card")
    del rec["turnup"]  # missing: the dealer's last card
    assert score_record(rec)["trumps"] == "H"


def test_play_longer_than_deal() -> None:
    rec = deal_b()
    rec["play"].append("AS")
    assert error_of(score_record, rec) == ("play", "play longer than deal")


def test_card_played_twice_and_not_in_hand() -> None:
    rec = deal_b()
    rec["play"] = ["JH", "6H", "9H", "6D", "JH"]
    assert error_of(score_record, rec) == ("play", "card played twice")
    rec["play"] = ["JH", "6H", "9H", "6D", "JS"]  # JS is seat 1's, seat 0 is to lead
    with pytest.raises(CatchTenError) as info:
        score_record(rec)
    assert (info.value.field, info.value.why) == ("play", "card not in hand")
    assert info.value.detail.startswith("play[4]=JS")


def test_card_of_a_later_set_is_not_in_hand() -> None:
    rec = deal_s()
    rec["play"] = ["AC"]  # seat 0's card of set 2
    assert error_of(score_record, rec) == ("play", "card not in hand")


def test_load_record_bad_file(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    with pytest.raises(ParseError) as info:
        load_record(p)
    assert info.value.field == "record"
    with pytest.raises(ParseError):
        load_record(tmp_path / "missing.json")
    p.write_text(json.dumps(DEAL_A))
    assert load_record(p)["dealer"] == 3


def test_hand_from_record_splits_sets() -> None:
    rules, dealer, set_hands, turnup, dead, play = hand_from_record(deal_s())
    assert rules.players == 2 and dealer == 1 and dead == []
    assert len(set_hands) == 3 and all(len(s) == 2 and len(s[0]) == 6 for s in set_hands)
    assert set_hands[2][1][-1] == turnup == 2 * 13 + 7   # 9D
    assert len(play) == 36 and play[0] == 0 * 13 + 12   # AS


def test_is_game_record_by_shape() -> None:
    assert not is_game_record(DEAL_A)
    assert is_game_record({"players": 4, "hands": [deal_b()]})
    assert is_game_record({"players": 4, "hands": []})
    assert is_game_record({"players": 4, "hands": "x"})       # no dealer: a game's hands
    assert not is_game_record({"players": 4, "dealer": 0, "hands": "x"})
    assert not is_game_record({"players": 4, "hands": [["JS"], 1]})
    assert not is_game_record({"players": 4, "seat": 0, "hand": ["JS"]})


def _no(rec: dict, key: str) -> dict:
    return {k: v for k, v in rec.items() if k != key}


@pytest.mark.parametrize("rec,field,part", [
    # review M3: a malformed hands without a dealer was reported as "dealer missing"
    ({"players": 4, "hands": "x"}, "hands", "hands is a string"),
    ({"players": 4, "hands": [1, 2]}, "hands", "hands[0] is a number, not a hand record"),
    ({"players": 4, "hands": None}, "hands", "hands is null"),
    ({"players": 4, "hands": {}}, "hands", "hands is an object"),
    ({"players": 4, "hands": [DEAL_A, "x"]}, "hands", "hands[1] is a string"),
    ({"players": 4, "hands": [DEAL_A, ["JS"]]}, "hands", "hands[1] is a list"),
    # a hand record's own shape faults name their own field
    (dict(DEAL_A, hands="x"), "hands", "not a list of 4 hands"),
    (dict(DEAL_A, hands=[1, 2]), "hands", "2 hands for 4 players"),
    (dict(DEAL_A, hands=[DEAL_A["hands"][0], 1, 2, 3]), "hands", "hands[1] is a number"),
    (dict(DEAL_A, hands=[["JS", 5]] * 4), "hands", "hands[0][1]=5"),
    (dict(DEAL_A, play="x"), "play", "play is a string"),
    (dict(DEAL_A, play=[["JS"]]), "play", "play[0]=a list"),
    (dict(DEAL_A, turnup=[]), "turnup", "turnup=a list"),
    (dict(DEAL_A, turnup=7), "turnup", "turnup=7"),
    (dict(DEAL_A, dealer="x"), "dealer", 'dealer "x"'),
    (dict(DEAL_A, dealer=1.5), "dealer", "dealer 1.5"),
    (dict(DEAL_A, dead="x"), "dead", "dead is a string"),
    # the documented order stands: a hand record (card lists) without a dealer
    (_no(dict(DEAL_A, hands=[["JS"], 1]), "dealer"), "dealer", "dealer missing"),
    ({"players": 4}, "dealer", "dealer missing"),
    # a hand of a game names the game's field, the hand in the detail
    ({"players": 4, "hands": [dict(_no(DEAL_A, "players"), hands="x")]}, "hands",
     "hands[0]: hands is a string"),
])
def test_malformed_shape_names_its_own_field(rec, field, part) -> None:
    with pytest.raises(CatchTenError) as info:
        score_any(copy.deepcopy(rec))
    assert info.value.field == field, str(info.value)
    assert part in str(info.value), str(info.value)


# ------------------------------------------------------------------------------ games
def game(hands: list[dict], exposed: bool = True, **variants) -> dict:
    hs = []
    for h in hands:
        h = copy.deepcopy(h)
        for key in ("rules", "variants", "players"):
            h.pop(key, None)
        hs.append(h)
    base = {"exposed_trump": True} if exposed else {}
    return {"rules": "foster", "variants": dict(base, **variants),
            "players": hands[0]["players"], "hands": hs}


def test_reached_one_side_alone() -> None:
    out = score_game(game([deal_b(), deal_b()]))
    assert out["running"] == [[23, 13], [46, 26]]
    assert (out["winner"], out["how"], out["step"], out["hand"]) == (0, "reached", None, 1)
    assert out["winner_seats"] == [0, 2]


def test_reaching_means_total_at_least_target() -> None:
    out = score_game(game([deal_b()], target=23))
    assert (out["winner"], out["how"], out["hand"]) == (0, "reached", 0)


def test_count_out_ten_first() -> None:
    # B then rotated B: [23, 13] then [36, 36], target 30. Count-out from [23, 13]:
    # ten: side 0 takes TH in the rotated deal: 33 >= 30 first.
    out = score_game(game([deal_b(), deal_b_rotated()], target=30))
    assert out["running"] == [[23, 13], [36, 36]]
    assert (out["winner"], out["how"], out["step"], out["hand"]) == (0, "count_out", "ten", 1)


def test_count_out_order_king_before_jack() -> None:
    # rotated B then B: [13, 23] then [36, 36], target 35. From [13, 23]: ten -> side 1 33;
    # cards -> side 0 19; ace -> side 0 23; king -> side 1 36 >= 35.
    out = score_game(game([deal_b_rotated(), deal_b()], target=35))
    assert (out["winner"], out["how"], out["step"]) == (1, "count_out", "king")


def test_count_out_two_sides_same_step_fewer_needed_wins() -> None:
    # §7.10 with three sides: before [30, 35, 0], card points 12 and 7 reach 41 together;
    # side 1 needed 6, side 0 needed 11: side 1 wins.
    steps = [[0] * 8 for _ in range(3)]
    steps[0][2], steps[1][2] = 12, 7

    class R:  # the two facts _count_out reads
        n_sides, target = 3, 41
    assert records._count_out(R, [30, 35, 0], steps, [42, 42, 0]) == (1, "cards")
    # equal need: the higher final total wins
    steps[0][2], steps[1][2] = 11, 6
    steps[0][3] = 5  # an Ace later for side 0: its final total is higher
    assert records._count_out(R, [30, 30, 0], steps, [46, 36, 0])[0] == 0


def test_higher_total_equal_totals_play_another_hand() -> None:
    rec = game([deal_b(), deal_b_rotated()], target=30, tie="higher_total")
    out = score_game(rec)
    assert out["running"][-1] == [36, 36]
    assert (out["finished"], out["how"], out["winner"]) == (False, "unfinished", None)
    rec["hands"].append(game([deal_b()])["hands"][0])
    out = score_game(rec)
    assert out["running"][-1] == [59, 49]
    assert (out["winner"], out["how"], out["hand"]) == (0, "higher_total", 2)


def test_tie_replay_plays_another_hand_first() -> None:
    # target 26: [23, 13] then [46, 26]: both reach -> another hand (no decision)
    rec = game([deal_b(), deal_b()], target=26, tie="replay")
    assert score_game(rec)["how"] == "unfinished"
    rec["hands"].append(rec["hands"][0])
    out = score_game(rec)
    assert (out["winner"], out["how"], out["hand"]) == (0, "higher_total", 2)
    assert out["running"][-1] == [69, 39]


def test_revoke_game_ends_game_revoker_loses() -> None:
    bad = deal_b()
    bad["variants"] = {}
    rec = game([bad], exposed=False)
    out = score_game(rec)
    assert out["running"] == [[23, 13]]  # the hand's points still go in (§7.12)
    assert (out["winner"], out["how"], out["loser"], out["hand"]) == (0, "revoke", 1, 0)


def test_revoke_game_three_sides_best_other_running_total_wins() -> None:
    bad = deal_b(everyone_alone=True)
    bad["variants"] = {"everyone_alone": True}
    rec = game([bad], exposed=False, everyone_alone=True)
    out = score_game(rec)
    # seat 3 revokes in trick 0; running [32, 3, 0, 10]: seat 0 has the best other total
    assert (out["winner"], out["how"], out["loser"]) == (0, "revoke", 3)


def test_hands_after_game_end_is_error() -> None:
    rec = game([deal_b(), deal_b(), deal_b()])
    assert error_of(score_game, rec) == ("hands", "hands after game end")


def test_unfinished_last_hand_adds_nothing() -> None:
    partial = deal_b()
    partial["play"] = partial["play"][:8]
    out = score_game(game([deal_b(), partial]))
    assert out["running"] == [[23, 13], [23, 13]]
    assert out["hands_scored"] == 2 and out["how"] == "unfinished"


def test_game_at_once_wins_at_the_trick() -> None:
    # [23, 13]; then deal B trick by trick: t0 JH -> 34, t1 AH+QH -> 40 >= 40
    out = score_game(game([deal_b(), deal_b()], target=40, game_at_once=True))
    assert (out["winner"], out["how"], out["hand"], out["trick"]) == (0, "reached", 1, 1)
    assert out["running"][-1] == [40, 13]


def test_game_at_once_beats_count_out() -> None:
    # B then rotated B, target 30: count-out would give side 0 (ten); at once, side 1
    # takes JH (24) and AH+QH (30) in tricks 0 and 1 of the second hand.
    out = score_game(game([deal_b(), deal_b_rotated()], target=30, game_at_once=True))
    assert (out["winner"], out["how"], out["trick"]) == (1, "reached", 1)
    assert out["running"][-1] == [23, 30]


def test_game_at_once_card_points_at_end_of_hand() -> None:
    # target 41: second hand reaches 40 by honours and 46 only with the card points
    out = score_game(game([deal_b(), deal_b()], game_at_once=True))
    assert (out["winner"], out["how"], out["trick"]) == (0, "reached", 8)
    assert out["running"][-1] == [46, 26]


def test_game_at_once_names_set_and_trick() -> None:
    # deal S, target 30: set 1 -> 6, set 2 -> 12; set 3 honours for seat 1: TD 10 (t13),
    # JD 21 (t14), QD 23 (t15), KD 26 (t16), AD 30 (t17)
    out = score_game(game([deal_s()], exposed=False, target=30, game_at_once=True))
    assert (out["winner"], out["set"], out["trick"]) == (1, 3, 17)
    assert out["running"] == [[12, 30]]


def test_per_set_target_checked_after_each_set() -> None:
    rec = game([deal_s()], exposed=False, target=12)
    out = score_game(rec)
    assert (out["winner"], out["how"], out["set"], out["trick"]) == (0, "reached", 2, 11)
    assert out["running"] == [[12, 0]]
    # scored per deal, the target is checked once at the end: [6, 30]
    rec["variants"] = {"target": 12, "set_scoring": "per_deal"}
    out = score_game(rec)
    assert (out["winner"], out["set"], out["trick"]) == (1, 3, 17)


def test_hand_may_inherit_rules_but_not_differ() -> None:
    rec = game([deal_b()])
    rec["hands"][0]["rules"] = "foster"
    rec["hands"][0]["variants"] = {"exposed_trump": True, "target": 41}  # same, resolved
    rec["hands"][0]["players"] = 4
    assert score_game(rec)["running"] == [[23, 13]]
    rec["hands"][0]["rules"] = "jaques"
    assert error_of(score_game, rec) == ("rules", "unknown preset")
    rec["hands"][0]["rules"] = "foster"
    rec["hands"][0]["variants"] = {"target": 31}
    assert error_of(score_game, rec) == ("variants", "bad variant value")
    rec["hands"][0]["variants"] = None
    rec["hands"][0]["players"] = 5
    assert error_of(score_game, rec) == ("players", "players out of range")


def test_game_hand_error_names_the_hand() -> None:
    rec = game([deal_b(), deal_b()])
    rec["hands"][1]["turnup"] = "AS"
    with pytest.raises(CatchTenError) as info:
        score_game(rec)
    assert info.value.field == "turnup" and info.value.detail.startswith("hands[1]:")


def test_game_at_once_no_win_counted_from_the_revoking_trick_on() -> None:
    # deal B without exposed_trump: seat 3 revokes in trick 0. Target 17: at once, side 0
    # would reach 11 + 6 = 17 in trick 1, but from the revoking trick on the revoke decides
    # at the end of the hand: side 1 loses, and the hand's totals [23, 13] go in (§7.12).
    bad = deal_b()
    bad["variants"] = {}
    out = score_game(game([bad], exposed=False, target=17, game_at_once=True))
    assert (out["winner"], out["how"], out["loser"], out["hand"]) == (0, "revoke", 1, 0)
    assert out["running"] == [[23, 13]]
