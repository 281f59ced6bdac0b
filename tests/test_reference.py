"""Tests of the reference engine (tests/reference.py) against the worked cases in tests/cases,
the docs/rules.md §2 worked examples, and invariants over random deals."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import reference as ref  # noqa: E402

CASES = Path(__file__).resolve().parent / "cases"


def _case_names(group: str) -> list:
    d = CASES / group
    if not d.is_dir():
        # a missing folder must fail, not skip: one test id that fails in _load
        return [f"MISSING-{group}"]
    return sorted(p.name[: -len(".json")] for p in d.glob("*.json") if not p.name.endswith(".expected.json"))


def _load(group: str, name: str):
    if name.startswith("MISSING-"):
        pytest.fail(f"worked cases folder missing or empty: {CASES / group}")
    rec = json.loads((CASES / group / f"{name}.json").read_text())
    exp = json.loads((CASES / group / f"{name}.expected.json").read_text())
    return rec, exp


def test_cases_folder_present():
    assert CASES.is_dir(), f"worked cases folder missing: {CASES}"
    for g in ("score", "illegal", "games"):
        assert _case_names(g), f"no cases in {CASES / g}"


# ---------------------------------------------------------------------------------------
# Shared cases (cases/README.md says what to compare)
# ---------------------------------------------------------------------------------------

SIDE_KEYS = ("side", "seats", "honours", "cards_taken", "card_points", "total")
SET_SIDE_KEYS = ("side", "honours", "cards_taken", "card_points", "total")


def _compare_score(got: dict, exp: dict):
    assert got["finished"] == exp["finished"]
    assert [(t["leader"], t["cards"], t["winner"]) for t in got["tricks"]] == \
        [(t["leader"], t["cards"], t["winner"]) for t in exp["tricks"]]
    assert [{k: s[k] for k in SIDE_KEYS} for s in got["sides"]] == \
        [{k: s[k] for k in SIDE_KEYS} for s in exp["sides"]]
    assert {k: got["ten"][k] for k in ("holder", "taken_by", "caught")} == \
        {k: exp["ten"][k] for k in ("holder", "taken_by", "caught")}
    assert got["revoke"] == exp["revoke"]
    if "sets" in exp:
        assert len(got["sets"]) == len(exp["sets"])
        for gs, es in zip(got["sets"], exp["sets"]):
            assert [{k: s[k] for k in SET_SIDE_KEYS} for s in gs["sides"]] == \
                [{k: s[k] for k in SET_SIDE_KEYS} for s in es["sides"]]
    else:
        assert "sets" not in got


@pytest.mark.parametrize("name", _case_names("score"))
def test_score_case(name):
    rec, exp = _load("score", name)
    _compare_score(ref.score_record(rec), exp)
    assert ref.score_any(rec)["sides"] == ref.score_record(rec)["sides"]


@pytest.mark.parametrize("name", _case_names("illegal"))
def test_illegal_case(name):
    rec, exp = _load("illegal", name)
    if exp["kind"] == "revoke":
        got = ref.score_record(rec)
        for k in ("seat", "trick", "card", "penalty"):
            assert got["revoke"][k] == exp["revoke"][k], k
        assert [s["total"] for s in got["sides"]] == [s["total"] for s in exp["score"]["sides"]]
        # informative keys: we produce them too
        assert got["revoke"]["effect"] == exp["revoke"]["effect"]
        _compare_score(got, exp["score"])
    else:
        assert exp["kind"] == "error"
        with pytest.raises(ref.RefError) as ei:
            ref.score_any(rec)
        assert (ei.value.field, ei.value.why) == (exp["field"], exp["why"]), ei.value.detail


GAME_KEYS = ("winner", "how", "step", "hand", "running")


@pytest.mark.parametrize("name", _case_names("games"))
def test_game_case(name):
    rec, exp = _load("games", name)
    got = ref.score_game(rec)
    assert {k: got.get(k) for k in GAME_KEYS} == {k: exp.get(k) for k in GAME_KEYS}
    assert got["finished"] == exp["finished"]
    assert got["hands_scored"] == exp["hands_scored"]
    if rec.get("variants", {}).get("game_at_once"):
        assert got.get("trick") == exp.get("trick")
    assert ref.score_any(rec)["winner"] == got["winner"]


# ---------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------

def test_card_index_layout():
    assert ref.CARD_INDEX["2S"] == 0
    assert ref.CARD_INDEX["AS"] == 12
    assert ref.CARD_INDEX["2H"] == 13
    assert ref.CARD_INDEX["TD"] == 2 * 13 + 8
    assert ref.CARD_INDEX["AC"] == 51
    assert all(ref.card_str(i) == s for s, i in ref.CARD_INDEX.items())


@pytest.mark.parametrize("text", ["TD", "td", "10D", "10d", "T\u2666", "10\u2666", " Td "])
def test_parse_ten_of_diamonds(text):
    assert ref.card_str(ref.parse_card(text)) == "TD"


@given(st.integers(0, 51), st.booleans(), st.sampled_from(["letter", "symbol"]))
def test_parse_roundtrip(i, lower, suit_form):
    text = ref.card_str(i)
    if suit_form == "symbol":
        text = text[0] + "\u2660\u2665\u2666\u2663"["SHDC".index(text[1])]
    if text[0] == "T" and lower:
        text = "10" + text[1:]
    if lower:
        text = text.lower()
    assert ref.parse_card(text) == i


@pytest.mark.parametrize("text", ["10X", "1D", "", "D", "TT", "11S", 5, None, "ZS"])
def test_parse_malformed(text):
    with pytest.raises(ref.RefError) as ei:
        ref.parse_card(text)
    assert ei.value.why == "malformed card"


# ---------------------------------------------------------------------------------------
# Rules objects
# ---------------------------------------------------------------------------------------

def C(s):
    return ref.parse_card(s)


@pytest.mark.parametrize("n,cards,deck,sides,share", [
    (2, 18, 36, 2, 6), (3, 12, 36, 3, 6), (4, 9, 36, 2, 18), (5, 7, 35, 5, 7),
    (6, 6, 36, 3, 12), (7, 5, 35, 7, 5), (8, 4, 32, 4, 8)])
def test_foster_table(n, cards, deck, sides, share):
    r = ref.ref_rules("foster", n)
    assert r.cards_per_player == cards
    assert len(r.deck) == deck
    assert r.n_sides == sides
    assert r.share(0) == share
    assert r.honours_total(ref.SPADES) == 30


def test_five_players_remove_six_of_spades():
    r = ref.ref_rules("foster", 5)
    assert C("6S") not in r.deck and C("6C") in r.deck
    r = ref.ref_rules("foster", 7, {"removed_six": "C"})
    assert C("6C") not in r.deck and C("6S") in r.deck
    r = ref.ref_rules("foster", 5, {"keep_six_of_spades": True})
    assert len(r.deck) == 36 and r.dead_count == 1 and r.cards_per_player == 7


def test_eight_players_remove_all_sixes():
    r = ref.ref_rules("foster", 8)
    assert all(ref.rank_of(c) != ref.R6 for c in r.deck)


def test_sides_and_seating():
    assert ref.ref_rules("foster", 4).side_of_seat == [0, 1, 0, 1]
    assert ref.ref_rules("foster", 6).side_of_seat == [0, 1, 2, 0, 1, 2]
    assert ref.ref_rules("foster", 6, {"six_players": "triples"}).side_of_seat == [0, 1, 0, 1, 0, 1]
    assert ref.ref_rules("foster", 8).side_of_seat == [0, 1, 2, 3, 0, 1, 2, 3]
    assert ref.ref_rules("foster", 4, {"everyone_alone": True}).side_of_seat == [0, 1, 2, 3]
    assert ref.ref_rules("jaques", 6).side_of_seat == [0, 1, 0, 1, 0, 1]
    assert ref.ref_rules("jaques", 6, {"six_as_three_pairs": True}).side_of_seat == [0, 1, 2, 0, 1, 2]


def test_sets_and_small_deal():
    r = ref.ref_rules("foster", 2)
    assert (r.sets, r.set_size, r.share(0)) == (3, 6, 6)
    r = ref.ref_rules("foster", 3, {"set_scoring": "per_deal"})
    assert (r.sets, r.share(0)) == (2, 12)
    r = ref.ref_rules("foster", 2, {"small_deal": "whole"})
    assert (r.sets, r.share(0)) == (1, 18)


def test_trump_orders_and_honours():
    assert [ref.card_str(c) for c in ref.ref_rules("foster").trump_order(ref.SPADES)] == \
        ["JS", "AS", "KS", "QS", "TS", "9S", "8S", "7S", "6S"]
    assert [ref.card_str(c) for c in ref.ref_rules("jaques").trump_order(ref.HEARTS)] == \
        ["JH", "TH", "AH", "KH", "QH", "9H", "8H", "7H", "6H"]
    fr = ref.ref_rules("french52")
    assert [ref.card_str(c) for c in fr.trump_order(ref.CLUBS)][:5] == ["JC", "AC", "KC", "QC", "TC"]
    assert len(fr.trump_order(ref.CLUBS)) == 13
    assert ref.ref_rules("jaques").honours_total(ref.SPADES) == 23
    assert fr.honours_total(ref.CLUBS) == 40 and fr.honours_total(ref.DIAMONDS) == 30
    assert (fr.target, fr.revoke, fr.card_points) == (40, "game", False)
    j = ref.ref_rules("jaques")
    assert (j.target, j.revoke, j.card_points, j.tie) == (41, "forfeit", False, "higher_total")
    assert len(ref.ref_rules("jaques", 4, {"deck52": True}).deck) == 52


@pytest.mark.parametrize("preset,players,variants,field,why", [
    ("whist", 4, {}, "rules", "unknown preset"),
    ("foster", 4, {"bogus": True}, "variants", "unknown variant"),
    ("foster", 4, {"deck52": True}, "variants", "unknown variant"),
    ("foster", 4, {"revoke": "banana"}, "variants", "bad variant value"),
    ("foster", 4, {"target": 0}, "variants", "bad variant value"),
    ("foster", 4, {"target": True}, "variants", "bad variant value"),
    ("foster", 4, {"exposed_trump": "yes"}, "variants", "bad variant value"),
    ("foster", 4, {"game_at_once": True, "revoke": "hand"}, "variants", "bad variant value"),
    ("jaques", 4, {"game_at_once": True}, "variants", "bad variant value"),
    ("foster", 1, {}, "players", "players out of range"),
    ("foster", 9, {}, "players", "players out of range"),
    ("jaques", 5, {}, "players", "players out of range"),
    ("jaques", 6, {"deck52": True}, "players", "players out of range"),
    ("french52", 6, {}, "players", "players out of range"),
    ("whist", 9, {"bogus": 1}, "rules", "unknown preset"),
    ("foster", 9, {"bogus": 1}, "variants", "unknown variant"),
])
def test_rules_errors(preset, players, variants, field, why):
    with pytest.raises(ref.RefError) as ei:
        ref.ref_rules(preset, players, variants)
    assert (ei.value.field, ei.value.why) == (field, why)


def test_dealer_declares_refused_in_records():
    ref.ref_rules("jaques", 4, {"dealer_declares": True})  # fine as a rule
    rec = _simple_record("jaques", 4, {"dealer_declares": True})
    with pytest.raises(ref.RefError) as ei:
        ref.score_record(rec)
    assert ei.value.field == "variants"


# ---------------------------------------------------------------------------------------
# docs/rules.md §2 worked examples, written by hand
# ---------------------------------------------------------------------------------------

def test_worked_example_1_ten_caught_by_leaders_side():
    """Four play, diamonds trumps: KC led, 10D (void in clubs), QD (leader's partner), 7C:
    QD wins; the leader's side catches the Ten: 10 + 2 honours."""
    rec = {
        "rules": "foster", "players": 4, "dealer": 3,
        "hands": [["KC", "AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"],
                  ["TD", "6S", "AH", "KH", "QH", "JH", "TH", "9H", "8H"],
                  ["QD", "7H", "6H", "AD", "KD", "JD", "9D", "8D", "7D"],
                  ["7C", "QC", "JC", "TC", "9C", "8C", "6C", "AC", "6D"]],
        "turnup": "6D", "play": ["KC", "TD", "QD", "7C"],
    }
    out = ref.score_record(rec)
    assert out["tricks"] == [{"leader": 0, "cards": ["KC", "TD", "QD", "7C"], "winner": 2}]
    assert out["ten"] == {"holder": 1, "taken_by": 2, "caught": True}
    assert [s["honours"] for s in out["sides"]] == [12, 0]
    assert [s["total"] for s in out["sides"]] == [12, 0]
    assert out["finished"] is False and out["revoke"] is None


def test_worked_example_2_share_and_honours():
    """Four play, spades trumps, 9 each, share 18.  Side 0 takes 6 tricks (24 cards): 6 card
    points + JS 11 + AS 4 = 21.  Side 1 takes 3 tricks (12 cards), TS KS QS: 15."""
    r = ref.ref_rules("foster", 4)
    assert r.share(0) == r.share(1) == 18
    tricks = [
        {"winner": 0, "cards": [C(x) for x in ("JS", "2H", "3H", "4H")]},
        {"winner": 2, "cards": [C(x) for x in ("AS", "5H", "6H", "7H")]},
    ] + [{"winner": 0, "cards": [C("8H")] * 4}] * 4 \
      + [{"winner": 1, "cards": [C(x) for x in ("TS", "KS", "QS", "9D")]}] \
      + [{"winner": 3, "cards": [C("9C")] * 4}] * 2
    scores = ref._unit_scores(r, tricks, ref.SPADES)
    assert (scores[0]["cards_taken"], scores[0]["card_points"], scores[0]["honours"], scores[0]["total"]) == (24, 6, 15, 21)
    assert (scores[1]["cards_taken"], scores[1]["card_points"], scores[1]["honours"], scores[1]["total"]) == (12, 0, 15, 15)


def test_worked_example_3_five_players():
    """Five play, 7 each: 15 cards score 8 card points, 10 cards score 3."""
    r = ref.ref_rules("foster", 5)
    assert r.share(0) == 7
    assert ref.card_points(15, r.share(0)) == 8
    assert ref.card_points(10, r.share(0)) == 3
    assert ref.card_points(5, r.share(0)) == 0


# ---------------------------------------------------------------------------------------
# Play rules
# ---------------------------------------------------------------------------------------

def test_follow_suit_and_free_discard():
    r = ref.ref_rules("foster", 4)
    hand = [C(x) for x in ("AS", "7H", "9D")]
    assert ref.legal_cards(r, hand, [C("KS")], ref.DIAMONDS) == [C("AS")]
    assert ref.legal_cards(r, hand, [C("KC")], ref.DIAMONDS) == sorted(hand)
    rm = ref.ref_rules("foster", 4, {"must_trump": True})
    assert ref.legal_cards(rm, hand, [C("KC")], ref.DIAMONDS) == [C("9D")]


def test_no_trump_first_lead_and_exposed_trump():
    r = ref.ref_rules("foster", 4, {"no_trump_first_lead": True})
    hand = [C(x) for x in ("AS", "7H", "9D")]
    assert ref.legal_cards(r, hand, [], ref.DIAMONDS, first_lead_of_set=True) == sorted([C("AS"), C("7H")])
    assert ref.legal_cards(r, hand, [], ref.DIAMONDS, first_lead_of_set=False) == sorted(hand)
    only = [C("9D"), C("JD")]
    assert ref.legal_cards(r, only, [], ref.DIAMONDS, first_lead_of_set=True) == sorted(only)
    re_ = ref.ref_rules("foster", 4, {"exposed_trump": True})
    # trumps led, the only trump is the locked turn-up: free choice, not a revoke
    assert ref.legal_cards(re_, hand, [C("KD")], ref.DIAMONDS, locked=C("9D")) == sorted([C("AS"), C("7H")])


def test_trick_winner_trump_ranks():
    r = ref.ref_rules("foster", 4)
    assert ref.trick_winner(r, 0, [C(x) for x in ("AS", "KS", "JS", "QS")], ref.SPADES) == 2
    assert ref.trick_winner(r, 1, [C(x) for x in ("TS", "AS", "6H", "KS")], ref.SPADES) == 2
    assert ref.trick_winner(r, 0, [C(x) for x in ("6C", "AH", "7C", "KC")], ref.SPADES) == 3
    rj = ref.ref_rules("jaques", 4)
    assert ref.trick_winner(rj, 0, [C(x) for x in ("AS", "TS", "KS", "QS")], ref.SPADES) == 1


def _simple_record(preset="foster", players=4, variants=None, seed=1):
    r = ref.ref_rules(preset, players, {k: v for k, v in (variants or {}).items() if k != "dealer_declares"})
    rng = random.Random(seed)
    hands, turnup, dead = ref.random_deal(r, 0, rng)
    return {"rules": preset, "variants": dict(variants or {}), "players": players, "dealer": 0,
            "hands": [[ref.card_str(c) for c in h] for h in hands], "turnup": ref.card_str(turnup),
            "dead": [ref.card_str(c) for c in dead], "play": []}


@pytest.mark.parametrize("mutate,field,why", [
    (lambda r: r["hands"].pop(), "hands", "wrong number of hands"),
    (lambda r: r["hands"][1].__setitem__(0, "5S"), "hands", "card not in deck"),
    (lambda r: r["hands"][1].__setitem__(0, r["hands"][0][0]), "hands", "duplicate card"),
    (lambda r: r["hands"][1].pop(), "hands", "wrong number of cards"),
    (lambda r: r.__setitem__("dead", ["2S"]), "dead", "card not in deck"),
    (lambda r: r.__setitem__("dead", ["XX"]), "dead", "malformed card"),
    (lambda r: r.__setitem__("turnup", r["hands"][0][0]), "turnup", "turnup not dealer's last card"),
    (lambda r: r.__setitem__("turnup", "1Q"), "turnup", "malformed card"),
    (lambda r: r.__setitem__("play", ["AS"] * 37), "play", "play longer than deal"),
    (lambda r: r.__setitem__("play", ["QQ"]), "play", "malformed card"),
    (lambda r: r.__setitem__("play", [r["hands"][2][0]]), "play", "card not in hand"),
    (lambda r: r.__setitem__("dealer", 4), "dealer", "players out of range"),
])
def test_record_errors(mutate, field, why):
    rec = _simple_record()
    mutate(rec)
    with pytest.raises(ref.RefError) as ei:
        ref.score_record(rec)
    assert (ei.value.field, ei.value.why) == (field, why)


def test_exposed_trump_played_early():
    """§3 exposed_trump: the dealer may not play the turn-up before the last two tricks."""
    r = ref.ref_rules("foster", 4, {"exposed_trump": True})
    for seed in range(200):
        rec = _simple_record(variants={"exposed_trump": True}, seed=seed)
        hands = [[C(c) for c in h] for h in rec["hands"]]
        turnup = C(rec["turnup"])
        deal = ref._Deal(r, 0, hands, turnup)
        play = []
        while deal.to_play() != 0:  # dealer is seat 0: play up to the dealer's first card
            c = deal.legal()[0]
            deal.play(c)
            play.append(ref.card_str(c))
        led = ref.suit_of(C(play[0]))
        # playing the turn-up would otherwise be legal (no revoke question in the way)
        if led == ref.suit_of(turnup) or not any(ref.suit_of(c) == led for c in hands[0]):
            rec["play"] = play + [rec["turnup"]]
            with pytest.raises(ref.RefError) as ei:
                ref.score_record(rec)
            assert (ei.value.field, ei.value.why) == ("play", "exposed trump played early")
            assert C(rec["turnup"]) not in deal.legal()
            return
    pytest.fail("no suitable deal found")


def test_trump_led_first():
    """§3 no_trump_first_lead: the opening lead may not be a trump unless all are trumps."""
    for seed in range(200):
        rec = _simple_record(variants={"no_trump_first_lead": True}, seed=seed)
        trump = ref.suit_of(C(rec["turnup"]))
        eldest = [C(c) for c in rec["hands"][1]]
        trumps = [c for c in eldest if ref.suit_of(c) == trump]
        if trumps and len(trumps) < len(eldest):
            rec["play"] = [ref.card_str(trumps[0])]
            with pytest.raises(ref.RefError) as ei:
                ref.score_record(rec)
            assert (ei.value.field, ei.value.why) == ("play", "trump led first")
            rec["variants"] = {}
            assert ref.score_record(rec)["finished"] is False
            return
    pytest.fail("no suitable deal found")


def test_revoke_penalties_hand_and_game():
    """Find a deal where the eldest's partner can revoke and check the three penalties."""
    for seed in range(200):
        rec = _simple_record(seed=seed)
        r = ref.ref_rules("foster", 4)
        hands = [[C(c) for c in h] for h in rec["hands"]]
        deal = ref._Deal(r, 0, hands, C(rec["turnup"]))
        lead = deal.legal()[0]
        deal.play(lead)
        seat = deal.to_play()
        held = deal.held[seat]
        off = [c for c in held if ref.suit_of(c) != ref.suit_of(lead)]
        on = [c for c in held if ref.suit_of(c) == ref.suit_of(lead)]
        if on and off:
            break
    base_play = [ref.card_str(lead), ref.card_str(off[0])]
    deal.play(off[0])
    rng = random.Random(3)
    while not deal.done():
        lg = deal.legal()
        c = lg[rng.randrange(len(lg))]
        deal.play(c)
    rec["play"] = [ref.card_str(c) for c in deal.played]
    assert rec["play"][:2] == base_play
    outs = {}
    for pen in ("game", "hand", "forfeit"):
        rec["variants"] = {"revoke": pen}
        outs[pen] = ref.score_record(rec)
        rv = outs[pen]["revoke"]
        assert (rv["seat"], rv["trick"], rv["card"], rv["penalty"]) == (seat, 0, base_play[1], pen)
    side = r.side_of_seat[seat]
    other = 1 - side
    made = [s["total"] for s in outs["game"]["sides"]]
    assert outs["game"]["revoke"]["effect"] == {"loses_game": side}
    assert [s["total"] for s in outs["hand"]["sides"]][side] == 0
    assert [s["total"] for s in outs["hand"]["sides"]][other] == made[other]
    assert [s["made"] for s in outs["hand"]["sides"]] == made
    assert [s["total"] for s in outs["forfeit"]["sides"]][other] == made[other] + made[side]
    assert outs["forfeit"]["revoke"]["effect"]["points_to"] == {str(other): made[side]}


# ---------------------------------------------------------------------------------------
# play_hand, choosers, random deals, invariants
# ---------------------------------------------------------------------------------------

def _as_record(r, preset, n, variants, dealer, hands, turnup, dead, play):
    return {"rules": preset, "variants": variants, "players": n, "dealer": dealer,
            "hands": [[ref.card_str(c) for c in h] for h in hands], "turnup": ref.card_str(turnup),
            "dead": [ref.card_str(c) for c in dead], "play": play}


def test_scripted_chooser_is_deterministic():
    r = ref.ref_rules("foster", 4)
    hands, turnup, dead = ref.random_deal(r, 2, random.Random(11))
    choices = [random.Random(5).randrange(1000) for _ in range(36)]
    a = ref.play_hand(r, 2, hands, turnup, dead, ref.scripted_chooser(choices))
    b = ref.play_hand(r, 2, hands, turnup, dead, ref.scripted_chooser(choices))
    assert a == b
    first = ref.play_hand(r, 2, hands, turnup, dead, ref.scripted_chooser([0] * 36))
    assert first["tricks"][0]["leader"] == 3


VARIANT_MIXES = [
    {}, {"exposed_trump": True}, {"no_trump_first_lead": True}, {"must_trump": True},
    {"ten_of_diamonds_bonus": True}, {"card_points": "off"},
]


@pytest.mark.parametrize("n", range(2, 9))
def test_random_deal_invariants(n):
    rng = random.Random(1000 + n)
    for i in range(200):
        variants = dict(VARIANT_MIXES[i % len(VARIANT_MIXES)])
        if n in (5, 7) and i % 4 == 1:
            variants["keep_six_of_spades"] = True
        if n in (2, 3) and i % 5 == 2:
            variants["set_scoring"] = "per_deal"
        if n in (2, 3) and i % 7 == 3:
            variants["small_deal"] = "whole"
        r = ref.ref_rules("foster", n, variants)
        dealer = rng.randrange(n)
        hands, turnup, dead = ref.random_deal(r, dealer, rng)
        # the deal partitions the deck
        allc = [c for h in hands for c in h] + dead
        assert sorted(allc) == r.deck
        assert turnup == hands[dealer][-1]
        out = ref.play_hand(r, dealer, hands, turnup, dead, ref.random_chooser(rng))
        played = [ref.parse_card(c) for c in out["play"]]
        assert len(played) == len(set(played)) == r.cards_dealt
        assert out["finished"] and out["revoke"] is None
        trump = ref.suit_of(turnup)
        # cards taken add up; honours add up unless an honour is dead
        assert sum(s["cards_taken"] for s in out["sides"]) == r.cards_dealt
        dead_hon = sum(r.honour_value(c, trump) for c in dead)
        assert sum(s["honours"] for s in out["sides"]) == r.honours_total(trump) - dead_hon
        if not dead_hon and not variants.get("ten_of_diamonds_bonus"):
            assert sum(s["honours"] for s in out["sides"]) == 30
        for s in out["sides"]:
            assert s["total"] == s["honours"] + s["card_points"]
        # every trick won by a trump or the led suit's best card
        for t in out["tricks"]:
            cs = [ref.parse_card(c) for c in t["cards"]]
            w = cs[(t["winner"] - t["leader"]) % n]
            assert ref.suit_of(w) in (trump, ref.suit_of(cs[0]))
        # the record re-scores identically
        rec = _as_record(r, "foster", n, variants, dealer, hands, turnup, dead, out["play"])
        again = ref.score_record(rec)
        out.pop("play")
        assert again == out
        # ten
        ten = ref.card(ref.RT, trump)
        if ten in dead:
            assert out["ten"] == {"holder": None, "taken_by": None, "caught": None}
        else:
            assert out["ten"]["caught"] in (True, False)


@pytest.mark.parametrize("preset,n,variants", [
    ("jaques", 4, {}), ("jaques", 6, {}), ("jaques", 6, {"six_as_three_pairs": True}),
    ("jaques", 4, {"deck52": True}), ("french52", 4, {}),
])
def test_other_presets_invariants(preset, n, variants):
    rng = random.Random(7)
    for _ in range(60):
        r = ref.ref_rules(preset, n, variants)
        dealer = rng.randrange(n)
        hands, turnup, dead = ref.random_deal(r, dealer, rng)
        out = ref.play_hand(r, dealer, hands, turnup, dead, ref.random_chooser(rng))
        trump = ref.suit_of(turnup)
        assert sum(s["cards_taken"] for s in out["sides"]) == len(r.deck)
        assert sum(s["honours"] for s in out["sides"]) == r.honours_total(trump)
        if preset == "jaques":
            assert r.honours_total(trump) == 23
        else:
            assert r.honours_total(trump) == (30 if trump == ref.DIAMONDS else 40)


def test_dealer_declares_no_trumps_play():
    r = ref.ref_rules("jaques", 4, {"dealer_declares": True})
    rng = random.Random(3)
    hands, turnup, dead = ref.random_deal(r, 0, rng)
    out = ref.play_hand(r, 0, hands, turnup, dead, ref.random_chooser(rng), trumps=None)
    assert sum(s["honours"] for s in out["sides"]) == 4 * (3 + 10 + 4 + 3 + 2)
    assert out["ten"] == {"holder": None, "taken_by": None, "caught": None}


# ---------------------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------------------

def _random_game(preset, n, variants, seed, n_hands):
    r = ref.ref_rules(preset, n, variants)
    rng = random.Random(seed)
    hands_out = []
    for k in range(n_hands):
        dealer = k % n
        hands, turnup, dead = ref.random_deal(r, dealer, rng)
        out = ref.play_hand(r, dealer, hands, turnup, dead, ref.random_chooser(rng))
        hr = _as_record(r, preset, n, variants, dealer, hands, turnup, dead, out["play"])
        for key in ("rules", "variants", "players"):
            hr.pop(key)
        hands_out.append(hr)
    return {"rules": preset, "variants": variants, "players": n, "hands": hands_out}


def test_game_hands_after_end_refused():
    g = _random_game("foster", 4, {"target": 10}, 1, 3)
    with pytest.raises(ref.RefError) as ei:
        ref.score_game(g)
    assert (ei.value.field, ei.value.why) == ("hands", "hands after game end")
    g["hands"] = g["hands"][:1]
    out = ref.score_game(g)
    assert out["finished"] and out["hand"] == 0


def test_game_running_totals_sum_hand_scores():
    g = _random_game("foster", 4, {"target": 1000}, 2, 4)
    out = ref.score_game(g)
    assert not out["finished"] and out["how"] == "unfinished"
    tot = [0, 0]
    for k, h in enumerate(g["hands"]):
        hr = dict(h, rules="foster", players=4, variants={"target": 1000})
        sc = ref.score_record(hr)
        tot = [tot[s] + sc["sides"][s]["total"] for s in range(2)]
        assert out["running"][k] == tot


def test_game_inherited_fields_must_match():
    g = _random_game("foster", 4, {}, 3, 1)
    g["hands"][0]["players"] = 5
    with pytest.raises(ref.RefError) as ei:
        ref.score_game(g)
    assert ei.value.field == "players"


def _as_game(hand_record, extra_hands=()):
    g = {k: hand_record[k] for k in ("rules", "variants", "players") if k in hand_record}
    hs = []
    for h in (hand_record,) + tuple(extra_hands):
        hs.append({k: v for k, v in h.items() if k not in ("rules", "variants", "players")})
    g["hands"] = hs
    return g


def test_game_revoke_penalty_game_ends_game():
    """§7.12: the revoker loses after the hand; the hand's points still count."""
    rec, exp = _load("illegal", "revoke_french52")
    out = ref.score_game(_as_game(rec))
    assert (out["how"], out["winner"], out["loser"], out["hand"]) == ("revoke", 1, 0, 0)
    assert out["running"] == [[s["total"] for s in exp["score"]["sides"]]]
    assert out["finished"] is True


def test_game_revoke_forfeit_points_move():
    rec, exp = _load("illegal", "revoke_jaques4")
    out = ref.score_game(_as_game(rec))
    assert out["running"] == [[0, 23]]
    assert out["how"] == "unfinished"


def test_game_revoke_three_sides_best_other_side_wins():
    """§7.4: penalty game with 3+ sides: the non-revoking side with the highest total wins."""
    for seed in range(400):
        r = ref.ref_rules("foster", 3, {"small_deal": "whole"})
        rng = random.Random(seed)
        hands, turnup, dead = ref.random_deal(r, 0, rng)
        deal = ref._Deal(r, 0, hands, turnup)
        lead = deal.legal()[0]
        deal.play(lead)
        held = deal.held[deal.to_play()]
        off = [c for c in held if ref.suit_of(c) != ref.suit_of(lead)]
        if off and len(off) < len(held):
            deal.play(off[0])
            while not deal.done():
                lg = deal.legal()
                deal.play(lg[rng.randrange(len(lg))])
            break
    rec = _as_record(r, "foster", 3, {"small_deal": "whole"}, 0, hands, turnup, dead,
                     [ref.card_str(c) for c in deal.played])
    sc = ref.score_record(rec)
    loser = sc["revoke"]["side"]
    totals = [s["total"] for s in sc["sides"]]
    others = [s for s in range(3) if s != loser]
    best = max(others, key=lambda s: (totals[s], -s))
    out = ref.score_game(_as_game(rec))
    assert (out["how"], out["loser"], out["winner"]) == ("revoke", loser, best)


def test_game_per_set_checks_after_each_set():
    """§7.9: with per-set scoring the target is checked after each set; the game result
    names the set and its last trick, and running stops at that set."""
    found = False
    for seed in range(60):
        g = _random_game("foster", 2, {"target": 12}, seed, 1)
        hr = dict(g["hands"][0], rules="foster", players=2, variants={"target": 12})
        sc = ref.score_record(hr)
        run = [0, 0]
        decided = None
        for st in sc["sets"]:
            run = [run[s] + st["sides"][s]["total"] for s in range(2)]
            hit = [s for s in range(2) if run[s] >= 12]
            if hit:
                decided = (st["set"], hit, list(run))
                break
        out = ref.score_game(g)
        if decided is None:
            assert out["how"] == "unfinished"
            continue
        set_no, hit, run = decided
        assert out["set"] == set_no and out["trick"] == 6 * set_no - 1
        assert out["running"] == [run]
        if len(hit) == 1:
            assert out["how"] == "reached" and out["winner"] == hit[0]
        if set_no < 3:
            found = True
    assert found


def test_game_at_once_names_trick_and_stops_running():
    for seed in range(40):
        g = _random_game("foster", 4, {"target": 15, "game_at_once": True}, seed, 1)
        hr = dict(g["hands"][0], rules="foster", players=4, variants={})
        sc = ref.score_record(hr)
        r = ref.ref_rules("foster", 4)
        trump = ref.SUITS.index(sc["trumps"])
        run = [0, 0]
        want = None
        for i, t in enumerate(sc["tricks"]):
            side = r.side_of_seat[t["winner"]]
            run[side] += sum(r.honour_value(ref.parse_card(c), trump) for c in t["cards"])
            if run[side] >= 15:
                want = (side, i, list(run))
                break
        out = ref.score_game(g)
        if want is None:
            final = [s["total"] for s in sc["sides"]]
            assert out["running"] == [final]
            continue
        assert (out["winner"], out["trick"], out["running"]) == (want[0], want[1], [want[2]])
        assert out["how"] == "reached"


def test_count_out_order():
    """§7.10: Ten, card points, Ace, King, Queen, Jack; first to reach wins."""
    r = ref.ref_rules("foster", 4)
    z = dict.fromkeys(ref.STEPS, 0)
    a = dict(z, jack=11, cards=2)       # side 0: 38 -> needs 3; reaches at the card step? 40, then jack 51
    b = dict(z, ace=4)                   # side 1: 38 -> 42 at the ace step
    assert ref._count_out(r, [38, 38], [a, b], [51, 42]) == (1, "ace")
    a = dict(z, ten=10)
    b = dict(z, cards=20)
    assert ref._count_out(r, [31, 40], [a, b], [41, 60]) == (0, "ten")
