"""PlayState: the verify / can / do pattern, voids, sets, the exposed turn-up, scores."""
from __future__ import annotations

import pytest

from catchten_sim.cards import parse_card
from catchten_sim.errors import CatchTenError, IllegalPlayError, ParseError, RevokeError
from catchten_sim.rules import Rules
from catchten_sim.state import PlayState

# docs/rules.md §2 worked example 2 as a full deal: four play, spades trumps, dealer seat 3
HANDS = ["JS AS AH KH QH AD KD QD JD",
         "TS KS QS 6D 7D 8D 9D TD 8S",
         "JH TH 9H 8H 7H 6H AC KC 9S",
         "QC JC TC 9C 8C 7C 6C 7S 6S"]
PLAY = ("AH TS 6H 7C  6D AC 8C AD  KH KS 7H 9C  7D KC TC KD  QH QS 8H JC  "
        "8D 9H QC QD  JS 8S 9S 7S  AS 9D JH 6S  JD TD TH 6C")


def C(text: str) -> int:
    return parse_card(text)


def cards(text: str) -> list[int]:
    return [C(t) for t in text.split()]


def state(variants=None, hands=HANDS, players=4) -> PlayState:
    return PlayState.from_hands(Rules("foster", players, variants or {}), 3,
                                [cards(h) for h in hands], turnup=C("6S"))


def test_worked_example_2_scores_21_and_15() -> None:
    s = state()
    for c in cards(PLAY):
        s.play(c)
    assert s.finished and len(s.tricks) == 9
    sc = s.unit_scores(0)
    assert [x["total"] for x in sc] == [21, 15]
    assert [x["card_points"] for x in sc] == [6, 0]
    assert s.ten_holder() == 1 and s.ten_taker == 1


def test_follow_suit_verify_can_and_play() -> None:
    s = state()
    s.play(C("AH"))
    assert s.legal_cards() == sorted(cards(HANDS[1]))   # void in hearts: any card
    s.play(C("TS"))
    assert s.legal_cards() == sorted(cards("JH TH 9H 8H 7H 6H"))
    assert not s.can_play(C("AC"))
    with pytest.raises(RevokeError) as info:
        s.verify_play(C("AC"))
    assert info.value.why == "revoke" and "follow suit, docs/rules.md §1" in info.value.detail
    assert info.value.detail.startswith("play[2]=AC")
    with pytest.raises(RevokeError):
        s.play(C("AC"))
    assert s.played == cards("AH TS")            # a refused card changes nothing
    s.play(C("AC"), allow_revoke=True)           # §7.3: counts as played, play goes on
    assert s.revoke is not None and s.revoke["seat"] == 2 and s.revoke["trick"] == 0


@pytest.mark.parametrize("bad,why", [
    ("JX", "malformed card"), ("", "malformed card"), (3.7, "malformed card"),
    (3.0, "malformed card"), (True, "malformed card"), (None, "malformed card"),
    ([1], "malformed card"), (99, "card not in deck"), (-1, "card not in deck"),
])
def test_a_card_that_is_not_a_card_is_one_error_naming_card(bad, why) -> None:
    # review Low 1: "JS"-like text raised a bare ValueError, 99 an IndexError, 3.7 was card 3
    s = state()
    for method in (s.can_play, s.verify_play, s.play):
        with pytest.raises(ParseError) as info:
            method(bad)
        assert (info.value.field, info.value.why) == ("card", why)
        assert "\n" not in str(info.value)
    assert s.played == []


def test_a_card_may_be_named_or_indexed() -> None:
    s = state()
    assert s.can_play("AH") and s.can_play(C("AH")) and s.can_play(" 10s ") is False
    assert not s.can_play("2S")          # a real card, not in the 36-card deck
    s.play("ah")
    assert s.played == [C("AH")]
    with pytest.raises(IllegalPlayError) as info:   # not in the deck, hand unknown
        PlayState.from_hands(Rules("foster", 4), 3, [None] * 4, turnup=C("6S")).verify_play("2S")
    assert (info.value.field, info.value.why) == ("play", "card not in hand")


def test_revoke_kept_has_the_documented_keys() -> None:
    s = state()
    s.play(C("AH"))
    s.play(C("TS"))
    s.play(C("AC"), allow_revoke=True)
    assert set(s.revoke) == {"seat", "trick", "card", "why"}
    assert "follow suit" in s.revoke["why"]
    assert "``why``" in PlayState.__doc__ and "``rule``" not in PlayState.__doc__


def test_played_twice_and_not_in_hand_come_first() -> None:
    s = state()
    for c in cards("AH TS 6H 7C"):
        s.play(c)
    with pytest.raises(IllegalPlayError) as info:
        s.verify_play(C("AH"))
    assert info.value.why == "card played twice"
    with pytest.raises(IllegalPlayError) as info:
        s.verify_play(C("KD"))                    # seat 2 leads; KD is seat 0's
    assert info.value.why == "card not in hand"


def test_must_trump_names_the_switch() -> None:
    s = state({"must_trump": True})
    s.play(C("AH"))
    assert s.legal_cards() == sorted(cards("TS KS QS 8S"))
    with pytest.raises(RevokeError) as info:
        s.verify_play(C("6D"))
    assert "must_trump" in info.value.detail


def test_no_trump_first_lead() -> None:
    s = state({"no_trump_first_lead": True})
    assert s.legal_cards() == sorted(set(cards(HANDS[0])) - set(cards("JS AS")))
    with pytest.raises(IllegalPlayError) as info:
        s.verify_play(C("JS"))
    assert info.value.why == "trump led first" and "no_trump_first_lead" in info.value.detail


def test_exposed_turnup_locked_until_the_last_two_tricks() -> None:
    s = state({"exposed_trump": True})
    for c in cards("AH TS 6H"):
        s.play(c)
    assert s.locked_turnup(3) == C("6S")
    assert C("6S") not in s.legal_cards()
    with pytest.raises(IllegalPlayError) as info:
        s.verify_play(C("6S"))
    assert info.value.why == "exposed trump played early"


def test_unknown_hands_infer_voids_and_refuse_a_shown_void() -> None:
    r = Rules("foster", 4)
    s = PlayState(r, 3, [[None] * 4], turnup=C("6S"))
    s.play(C("AH"))
    s.play(C("TS"))                               # seat 1 shows void in hearts
    assert s.voids[1] == 1 << 1
    for c in cards("6H 7C 6D AC 8C AD"):
        s.play(c)
    # TS won trick 0, so seat 1 led trick 1: 6D (1), AC (2), 8C (3), AD (0) wins
    assert s.voids[2] >> 2 & 1 and s.voids[3] >> 2 & 1
    s.play(C("KH"))                               # seat 0 leads hearts
    with pytest.raises(RevokeError) as info:
        s.verify_play(C("9H"))                    # seat 1 had shown void in hearts
    assert "shown void" in info.value.detail
    with pytest.raises(IllegalPlayError) as info:
        s.verify_play(C("6S"))                    # the turn-up is the dealer's
    assert info.value.why == "card not in hand"


def test_sets_winner_leads_the_next_set_and_voids_reset() -> None:
    r = Rules("foster", 2)
    from catchten_sim.play import deal, play
    pd = play(deal(r, seed=5, index=0), "random")
    s = pd.deal.play_state()
    for i, c in enumerate(pd.play):
        s.play(c)
        if i == 11:                                # the first set's six tricks
            assert s.set_index == 1 and s.voids == [0, 0]
            assert s.leader == s.tricks[-1].winner
            assert s.held_count == [6, 6]
    assert [t.set for t in s.tricks] == [1] * 6 + [2] * 6 + [3] * 6
    assert s.n_units == 3
    total = sum(sum(x["cards_taken"] for x in s.unit_scores(u)) for u in range(3))
    assert total == 36


@pytest.mark.parametrize("kw, field, why", [
    ({"turnup": 5}, "trump", "missing"),                       # no declared trump
    ({"turnup": 5, "trump": 0}, "turnup", "no turn-up with dealer_declares"),
    ({"trump": 5}, "trump", "bad trump"),                      # not a suit code
    ({"trump": True}, "trump", "bad trump"),
])
def test_a_declared_trump_has_no_turnup(kw, field, why) -> None:
    """jaques dealer_declares (docs/rules.md §4): the dealer names trumps, so a deal
    has a declared trump and no turn-up; anything else is refused naming the field."""
    rules = Rules("jaques", 4, {"dealer_declares": True})
    deck = sorted(rules.deck)
    hands = [deck[9 * s:9 * s + 9] for s in range(4)]
    with pytest.raises(CatchTenError) as e:
        PlayState.from_hands(rules, 0, hands, **kw)
    assert (e.value.field, e.value.why) == (field, why)
    for trump in range(5):                                      # four suits, no trumps
        assert PlayState.from_hands(rules, 0, hands, trump=trump).trump == trump


@pytest.mark.parametrize("kw, field, why", [
    ({}, "turnup", "missing"),
    ({"trump": 0}, "turnup", "missing"),
    ({"turnup": 5, "trump": 1}, "trump", "bad trump"),         # 5 is a spade
    ({"turnup": 5, "trump": 4}, "trump", "bad trump"),         # no trumps needs declaring
])
def test_trumps_are_the_turnups_suit(kw, field, why) -> None:
    rules = Rules("foster", 4)
    deck = sorted(rules.deck)
    hands = [deck[9 * s:9 * s + 9] for s in range(4)]       # seat 0 the spades, 1 hearts
    with pytest.raises(CatchTenError) as e:
        PlayState.from_hands(rules, 0, hands, **kw)
    assert (e.value.field, e.value.why) == (field, why)
    assert PlayState.from_hands(rules, 0, hands, turnup=5, trump=0).trump == 0
    assert PlayState.from_hands(rules, 1, hands, turnup=18).trump == 1


def _foster4_hands() -> list[list[int]]:
    deck = sorted(Rules("foster", 4).deck)
    return [deck[9 * s:9 * s + 9] for s in range(4)]         # seat 0 the spades, 1 hearts


@pytest.mark.parametrize("change, field, why", [
    (lambda h, kw: kw.update(turnup=99), "turnup", "card not in deck"),
    (lambda h, kw: kw.update(turnup=2), "turnup", "card not in deck"),      # 4S: not dealt
    (lambda h, kw: kw.update(turnup="XX"), "turnup", "malformed card"),
    (lambda h, kw: kw.update(turnup=18), "turnup", "turnup not dealer's last card"),
    (lambda h, kw: kw.update(dealer=7), "dealer", "dealer out of range"),
    (lambda h, kw: kw.update(dealer=True), "dealer", "dealer out of range"),
    (lambda h, kw: h.__setitem__(1, list(h[0])), "hands", "duplicate card"),
    (lambda h, kw: h.pop(), "hands", "wrong number of hands"),
    (lambda h, kw: h.__setitem__(2, h[2][:1]), "hands", "wrong number of cards"),
    (lambda h, kw: h[3].__setitem__(0, 0), "hands", "card not in deck"),     # 2S
    # a dead card also dealt: reported on dead, as a hand record's checks do (RULES.md's
    # checking order: duplicates in the hands, then in dead)
    (lambda h, kw: kw.update(dead=[h[2][0]]), "dead", "duplicate card"),
    (lambda h, kw: h.__setitem__(2, h[2] + [h[3][0]]), "hands", "duplicate card"),
    # a tenth card: kept by from_hands (not cut to nine) and counted
    (lambda h, kw: h.__setitem__(2, h[2] + [h[3].pop()]), "hands", "wrong number of cards"),
])
def test_a_deal_that_cannot_have_been_dealt_is_refused_naming_the_field(change, field, why):
    """PlayState checks the deal it is given (docs/rules.md §1): the dealer a seat, one
    hand of the right size per seat, every card of the deck once, the turn-up the
    dealer's last card; a card given by name or index."""
    hands = _foster4_hands()
    kw = {"dealer": 0, "turnup": "AS"}
    change(hands, kw)
    dealer = kw.pop("dealer")
    with pytest.raises(CatchTenError) as e:
        PlayState.from_hands(Rules("foster", 4), dealer, hands, **kw)
    assert (e.value.field, e.value.why) == (field, why), e.value.line()


def test_a_turnup_by_name_and_unknown_hands_are_taken() -> None:
    hands = _foster4_hands()
    st = PlayState.from_hands(Rules("foster", 4), 0, hands, turnup="AS")
    assert st.turnup == parse_card("AS") and st.trump == 0
    # the dealer's hand unknown: the turn-up is checked against the known hands only
    st = PlayState.from_hands(Rules("foster", 4), 0, [None, hands[1], None, None], turnup="AS")
    assert st.turnup == parse_card("AS")
    with pytest.raises(CatchTenError) as e:
        PlayState.from_hands(Rules("foster", 4), 0, [None, hands[1], None, None], turnup="AH")
    assert (e.value.field, e.value.why) == ("turnup", "turnup not dealer's last card")
