"""One test per rule clause of docs/rules.md §1-§5, through the public API.

Deals are built with ``deal_from_hands`` and played by the kernel with a script (``play(d,
script=...)``: each card played takes the next entry k and plays ``legal[k % len(legal)]``,
legal ascending by card index). ``_script_for`` turns an intended sequence of cards into
such a script with ``PlayState``'s legal cards, and every test then checks
that the kernel really played that sequence, so a kernel that allows or forbids a
different card fails the test. ``_legal_at`` asks the kernel itself which cards it allows
at one decision point (it tries every script value there).

The §2 worked examples are played in full by the kernel. Game-level clauses (count-out,
ties, game_at_once, revoke) are scored with ``records.score_game`` on records of the same
worked hand, whose numbers are derived by hand next to each test.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from catchten_sim import records
from catchten_sim.cards import format_card, parse_card
from catchten_sim.errors import CatchTenError, ParseError, RulesError
from catchten_sim.play import deal, deal_from_hands, play
from catchten_sim.rules import REGISTRY, Rules

S, H, D, CL = 0, 1, 2, 3
RANKS = "23456789TJQKA"


def C(text: str) -> int:
    return parse_card(text)


def cards(text: str) -> list[int]:
    return [C(t) for t in text.split()]


def names(cs) -> list[str]:
    return [format_card(c) for c in cs]


# --------------------------------------------------------------------------- script helpers
def _script_for(d, wanted: list[int]) -> list[int]:
    """Script entries that make the kernel play ``wanted`` (a prefix of the play): the index
    of each card among the legal cards that :class:`~catchten_sim.state.PlayState` (the
    package's one Python reading of the rules of play) allows there. Zeros pad the rest."""
    state = d.play_state()
    script = []
    for j, c in enumerate(wanted):
        cand = state.legal_cards()
        assert c in cand, f"intended card {format_card(c)} is not legal at play[{j}]"
        script.append(cand.index(c))
        state.play(c)
    return script + [0] * (d.rules.n_dealt - len(script))


def _play_as(d, wanted: list[int]):
    p = play(d, script=_script_for(d, wanted))
    assert names(p.play[:len(wanted)]) == names(wanted)
    return p


def _legal_at(d, prefix: list[int]) -> set[int]:
    """The cards the kernel allows right after ``prefix`` (it tries every script value)."""
    base = _script_for(d, prefix)[:len(prefix)]
    out = set()
    for k in range(13):
        script = base + [k] + [0] * (d.rules.n_dealt - len(base) - 1)
        p = play(d, script=script)
        assert p.play[:len(prefix)] == list(prefix)
        out.add(p.play[len(prefix)])
    return out


# --------------------------------------------------------------------------- worked hands
# docs/rules.md §2 worked example 2 as a full deal: four play, spades trumps, dealer seat 3.
WE2_HANDS = [
    "JS AS AH KH QH AD KD QD JD",
    "TS KS QS 6D 7D 8D 9D TD 8S",
    "JH TH 9H 8H 7H 6H AC KC 9S",
    "QC JC TC 9C 8C 7C 6C 7S 6S",   # dealer; 6S is the turn-up (last card)
]
WE2_PLAY = ("AH TS 6H 7C  6D AC 8C AD  KH KS 7H 9C  7D KC TC KD  QH QS 8H JC  "
            "8D 9H QC QD  JS 8S 9S 7S  AS 9D JH 6S  JD TD TH 6C")
# the same hand with a revoke: seat 2 plays AC to a heart lead in trick 0 while holding
# hearts, and 6H in trick 1 instead (void in diamonds: any card)
WE2_REVOKE_PLAY = WE2_PLAY.replace("AH TS 6H 7C  6D AC 8C AD",
                                   "AH TS AC 7C  6D 6H 8C AD")


def _we2_deal(preset="foster", variants=None, trump=None):
    rules = Rules(preset, 4, variants or {})
    hands = [cards(h) for h in WE2_HANDS]
    if trump is not None:
        return deal_from_hands(rules, 3, hands, None, (), trump=trump)
    return deal_from_hands(rules, 3, hands, C("6S"))


def _we2_record(play_text=WE2_PLAY, rotated=False) -> dict:
    """The worked hand as a hand record; ``rotated`` moves every hand one seat to the left
    (seat s's cards to seat s+1, dealer 0), so the same play scores for the other side."""
    hands = [h.split() for h in WE2_HANDS]
    dealer = 3
    if rotated:
        hands = [hands[(s - 1) % 4] for s in range(4)]
        dealer = 0
    return {"dealer": dealer, "hands": hands, "turnup": "6S", "play": play_text.split()}


def _game(hands: list[dict], preset="foster", variants=None) -> dict:
    return records.score_game({"rules": preset, "variants": variants or {}, "players": 4,
                               "hands": hands})


def _random_played(rules: Rules, count: int, seed: int = 1, policy="script"):
    rng = random.Random(seed)
    for i in range(count):
        d = deal(rules, seed=seed, index=i)
        if policy == "script":
            yield d, play(d, script=[rng.randrange(10 ** 6) for _ in range(rules.n_dealt)])
        else:
            yield d, play(d, policy)


def _owner(d) -> dict[int, int]:
    return {c: s for s in range(d.rules.players) for c in d.hand(s)}


# =========================================================================== §1 common core
def test_deck_is_36_cards_six_to_ace_in_four_suits() -> None:
    r = Rules("foster", 4)
    assert len(r.deck) == 36
    assert sorted(names(r.deck)) == sorted(f"{rk}{st}" for st in "SHDC" for rk in "6789TJQKA")


def test_plain_suit_order_ace_high_down_to_six() -> None:
    # trick 9 of the worked hand, no trumps in it: JD beats TD; the off-suit TH cannot win
    p = _play_as(_we2_deal(), cards(WE2_PLAY))
    assert p.tricks[8] == (0, tuple(cards("JD TD TH 6C")), 0)
    # trick 2: AD (led suit) wins, the off-suit AC does not
    assert p.tricks[1] == (1, tuple(cards("6D AC 8C AD")), 0)
    # every trick without a trump over many deals: the highest rank of the led suit wins
    for d, p in _random_played(Rules("foster", 4), 40):
        own = _owner(d)
        for leader, cs, winner in p.tricks:
            if not any(c // 13 == d.trump for c in cs):
                led = [c for c in cs if c // 13 == cs[0] // 13]
                best = max(led, key=lambda c: "6789TJQKA".index(format_card(c)[0]))
                assert own[best] == winner


def test_last_card_dealt_is_dealers_turnup_and_its_suit_is_trumps() -> None:
    for n in range(2, 9):
        r = Rules("foster", n)
        for i in range(10):
            d = deal(r, seed=3, index=i)
            assert d.turnup == d.hand(d.dealer)[-1]
            assert d.trump == d.turnup // 13


def test_turnup_stays_the_dealers_card_until_played() -> None:
    for d, p in _random_played(Rules("foster", 4), 30):
        k = p.play.index(d.turnup)
        leader, cs, _ = p.tricks[k // 4]
        assert (leader + cs.index(d.turnup)) % 4 == d.dealer


def test_eldest_hand_leads_first_and_play_is_clockwise() -> None:
    for n in (2, 4, 5, 8):
        for d, p in _random_played(Rules("foster", n), 10, seed=n):
            own = _owner(d)
            assert p.tricks[0][0] == (d.dealer + 1) % n
            for leader, cs, _ in p.tricks:
                assert [own[c] for c in cs] == [(leader + j) % n for j in range(n)]


def test_must_follow_suit_if_able() -> None:
    d = _we2_deal()
    # seat 2 holds six hearts: to the AH lead only hearts are allowed
    assert _legal_at(d, cards("AH TS")) == set(cards("JH TH 9H 8H 7H 6H"))


def test_void_player_may_play_any_card_no_duty_to_trump() -> None:
    d = _we2_deal()
    # seat 1 has no hearts: every card of its hand is allowed, trumps and plain cards alike
    assert _legal_at(d, cards("AH")) == set(cards(WE2_HANDS[1]))


def test_highest_trump_wins_else_highest_of_led_suit() -> None:
    p = _play_as(_we2_deal(), cards(WE2_PLAY))
    assert p.tricks[0][2] == 1      # TS trumps the AH
    assert p.tricks[6][2] == 0      # JS over 9S 8S 7S
    assert p.tricks[7][2] == 0      # AS over 6S
    assert p.tricks[3][2] == 0      # KD, the highest diamond, no trump in the trick


def test_winner_leads_next_trick() -> None:
    for d, p in _random_played(Rules("foster", 4), 20):
        for a, b in zip(p.tricks, p.tricks[1:]):
            assert b[0] == a[2]


def test_deal_passes_to_the_left() -> None:
    for n in (2, 4, 7):
        r = Rules("foster", n)
        dealers = [deal(r, seed=9, index=i).dealer for i in range(2 * n)]
        assert dealers == [i % n for i in range(2 * n)]
        # the next dealer is the eldest hand (the player on the dealer's left)
        assert all((a + 1) % n == b for a, b in zip(dealers, dealers[1:]))


# =========================================================================== §2 foster
def _check_trump_order(rules: Rules, order: str, deals: int = 60) -> int:
    """Every trick holding two or more trumps is won by the highest by ``order``."""
    seen = 0
    for d, p in _random_played(rules, deals, seed=11):
        own = _owner(d)
        for _, cs, winner in p.tricks:
            tr = [c for c in cs if c // 13 == d.trump]
            if len(tr) >= 2:
                seen += 1
                best = min(tr, key=lambda c: order.index(format_card(c)[0]))
                assert own[best] == winner, names(cs)
    return seen


def test_foster_trump_order_J_A_K_Q_T_9_8_7_6() -> None:
    assert _check_trump_order(Rules("foster", 4), "JAKQT9876") > 20


def test_foster_honours_J11_T10_A4_K3_Q2_total_30() -> None:
    p = _play_as(_we2_deal(), cards(WE2_PLAY))
    # side 0 took JS (11) and AS (4); side 1 TS (10), KS (3), QS (2)
    assert p.honours == (15, 15)
    for d, p in _random_played(Rules("foster", 4), 30):
        assert sum(p.honours) == 30


def test_card_points_one_per_card_above_share() -> None:
    p = _play_as(_we2_deal(), cards(WE2_PLAY))
    assert p.cards_taken == (24, 12)
    assert p.card_points == (6, 0)       # 24 - 18; 12 < 18
    assert p.total == (21, 15)


def test_foster_target_41() -> None:
    assert Rules("foster", 4).target == 41
    # a side that reaches 41 wins: two worked hands give side 0 21 + 21 = 42 >= 41, side 1 30
    g = _game([_we2_record(), _we2_record()])
    assert (g["winner"], g["how"], g["hand"], g["running"]) == (0, "reached", 1,
                                                                [[21, 15], [42, 30]])


# count-out (§2, §7.10): hand H gives side 0 cards 6, Ace 4, Jack 11 (21) and side 1
# Ten 10, King 3, Queen 2 (15). Start of hand 2 after one H: 21 / 15.
@pytest.mark.parametrize("n_hands,target,winner,step", [
    (2, 25, 1, "ten"),    # ten: side 1 15+10 = 25 first; side 0 would reach at cards (27)
    (2, 27, 0, "cards"),  # side 0 21+6 = 27 at cards; side 1 reaches only at king (28)
    (2, 30, 0, "ace"),    # side 0 27+4 = 31 at ace; side 1 reaches at queen (30)
    (1, 12, 1, "king"),   # side 1 10+3 = 13 at king; side 0 reaches at jack (21)
    (1, 15, 1, "queen"),  # side 1 15 at queen beats side 0 (21, higher) reaching at jack
])
def test_several_reach_target_count_out_ten_cards_ace_king_queen_jack(
        n_hands, target, winner, step) -> None:
    g = _game([_we2_record()] * n_hands, variants={"target": target})
    assert all(t >= target for t in g["running"][-1])       # both sides passed the target
    assert (g["winner"], g["how"], g["step"], g["hand"]) == (winner, "count_out", step,
                                                             n_hands - 1)


def test_two_players_three_sets_of_six() -> None:
    r = Rules("foster", 2)
    assert (r.n_sets, r.set_size, r.cards_per_player, r.n_sides, r.share) == (3, 6, 18, 2, 6)
    for d, p in _random_played(r, 10):
        assert len(d.set_hands) == 3
        for row in d.set_hands:
            assert [bin(m).count("1") for m in row] == [6, 6]
        assert len(p.tricks) == 18
        # set k is played from the set-k cards only, in tricks 6k .. 6k+5
        for k in range(3):
            set_cards = {c for m in d.set_hands[k] for c in range(52) if m >> c & 1}
            assert {c for _, cs, _ in p.tricks[6 * k:6 * k + 6] for c in cs} == set_cards


def test_sets_turnup_is_last_card_of_last_set_and_waits_for_that_set() -> None:
    for n in (2, 3):
        r = Rules("foster", n)
        for d, p in _random_played(r, 10, seed=n):
            assert d.set_hands[-1][d.dealer] >> d.turnup & 1
            k = p.play.index(d.turnup) // n
            assert k >= (r.n_sets - 1) * 6


def test_sets_winner_of_last_trick_leads_next_set() -> None:
    for n in (2, 3):
        for d, p in _random_played(Rules("foster", n), 10, seed=5 + n):
            for k in range(6, len(p.tricks), 6):
                assert p.tricks[k][0] == p.tricks[k - 1][2]


def test_share_per_set_is_six() -> None:
    """Each set is scored as its own hand: card points = sum over sets of max(0, cards - 6)."""
    r = Rules("foster", 2)
    differs = 0
    for d, p in _random_played(r, 40, seed=4):
        for side in (0, 1):
            per_set = [2 * sum(1 for _, _, w in p.tricks[6 * k:6 * k + 6] if w == side)
                       for k in range(3)]
            assert p.card_points[side] == sum(max(0, c - 6) for c in per_set)
            differs += p.card_points[side] != max(0, sum(per_set) - 18)
    assert differs > 0  # per-set scoring really differs from one share of 18


def test_three_players_two_sets_of_six() -> None:
    r = Rules("foster", 3)
    assert (r.n_sets, r.set_size, r.cards_per_player, r.n_sides, r.share) == (2, 6, 12, 3, 6)
    d = deal(r, seed=1, index=0)
    assert len(d.set_hands) == 2 and len(d.hand(0)) == 12


def test_four_players_partners_opposite_share_18() -> None:
    r = Rules("foster", 4)
    assert [r.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert (r.cards_per_player, r.share) == (9, 18)


def test_five_players_remove_six_of_spades() -> None:
    r = Rules("foster", 5)
    assert len(r.deck) == 35 and C("6S") not in r.deck and C("6C") in r.deck
    assert (r.cards_per_player, r.n_sides, r.share) == (7, 5, 7)
    for d, p in _random_played(r, 10):
        assert C("6S") not in p.play and len(p.play) == 35


def test_five_players_worked_example_15_cards_8_points_10_cards_3() -> None:
    r = Rules("foster", 5)
    seen = set()
    for d, p in _random_played(r, 200, seed=21):
        for seat in range(5):
            if p.cards_taken[seat] == 15:
                assert p.card_points[seat] == 8
                seen.add(15)
            if p.cards_taken[seat] == 10:
                assert p.card_points[seat] == 3
                seen.add(10)
    assert seen == {10, 15}


def test_six_players_three_sides_of_two_with_two_opponents_between() -> None:
    r = Rules("foster", 6)
    assert [r.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert (r.cards_per_player, r.share) == (6, 12)


def test_seven_players_remove_six_of_spades_five_each() -> None:
    r = Rules("foster", 7)
    assert len(r.deck) == 35 and C("6S") not in r.deck
    assert (r.cards_per_player, r.n_sides, r.share) == (5, 7, 5)


def test_eight_players_remove_all_sixes() -> None:
    r = Rules("foster", 8)
    assert len(r.deck) == 32 and not any(format_card(c)[0] == "6" for c in r.deck)
    assert [r.side_of(s) for s in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert (r.cards_per_player, r.share) == (4, 8)


def test_revoke_loses_the_game() -> None:
    rec = _we2_record(WE2_REVOKE_PLAY)
    out = records.score_record(dict(rec, players=4))
    assert (out["revoke"]["seat"], out["revoke"]["trick"], out["revoke"]["card"]) == (2, 0, "AC")
    assert [s["total"] for s in out["sides"]] == [21, 15]     # penalty game: totals stand
    g = _game([rec])
    assert (g["winner"], g["how"], g["loser"]) == (1, "revoke", 0)


def test_worked_example_1_queen_catches_the_ten() -> None:
    """Four play, diamonds trumps. Lead KC; next 10D (void in clubs); leader's partner QD;
    fourth 7C. The QD wins; the leader's side catches the Ten: 10 + 2."""
    rules = Rules("foster", 4)
    hands = [cards("KC AC QC JC TC 9C 8C 6C AS"),
             cards("TD JD AD KD KS QS JS TS 9S"),
             cards("QD 8S 7S 6S AH KH QH JH TH"),
             cards("7C 9H 8H 7H 6H 9D 8D 7D 6D")]
    d = deal_from_hands(rules, 3, hands, C("6D"))
    p = _play_as(d, cards("KC TD QD 7C"))
    assert p.tricks[0] == (0, tuple(cards("KC TD QD 7C")), 2)
    assert (p.ten_holder, p.ten_taker, p.ten_caught) == (1, 2, True)
    # the leader's side has no other trump after this trick, so its honours are exactly
    # the 12 of the first trick; the rest (J, A, K of diamonds: 18) go to the other side
    assert p.honours == (12, 18)


def test_worked_example_2_six_tricks_21_three_tricks_15() -> None:
    p = _play_as(_we2_deal(), cards(WE2_PLAY))
    assert [w for _, _, w in p.tricks].count(0) + [w for _, _, w in p.tricks].count(2) == 6
    assert p.cards_taken == (24, 12)
    assert p.card_points == (6, 0)
    assert p.total == (21, 15)
    assert (p.ten_holder, p.ten_taker, p.ten_caught) == (1, 1, False)


# =========================================================================== §3 switches
def test_game_at_once_wins_at_the_trick() -> None:
    # start of hand 2: 21 / 15, target 30. At once, side 1 takes TS (25), KS (28), QS (30)
    # in tricks 0, 2, 4 and wins at trick 4. Without it, the count-out gives side 0 (ace).
    g = _game([_we2_record()] * 2, variants={"target": 30, "game_at_once": True})
    assert (g["winner"], g["how"], g["hand"], g["trick"]) == (1, "reached", 1, 4)
    assert g["running"][-1] == [21, 30]
    g = _game([_we2_record()] * 2, variants={"target": 30})
    assert (g["winner"], g["how"], g["step"]) == (0, "count_out", "ace")


@pytest.mark.parametrize("penalty", ["hand", "forfeit"])
def test_game_at_once_with_hand_revoke_refused(penalty) -> None:
    with pytest.raises(RulesError) as e:
        Rules("foster", 4, {"game_at_once": True, "revoke": penalty})
    assert (e.value.field, e.value.why) == ("variants", "bad variant value")
    assert Rules("foster", 4, {"game_at_once": True, "revoke": "game"}).v("game_at_once")


def test_everyone_alone_no_partnerships() -> None:
    for n, share in ((4, 9), (6, 6), (8, 4)):
        r = Rules("foster", n, {"everyone_alone": True})
        assert [r.side_of(s) for s in range(n)] == list(range(n))
        assert r.share == share
        for d, p in _random_played(r, 5, seed=n):
            assert len(p.total) == n
            assert list(p.card_points) == [max(0, c - share) for c in p.cards_taken]


def test_keep_six_of_spades_deals_35_and_lays_the_36th_aside() -> None:
    for n in (5, 7):
        r = Rules("foster", n, {"keep_six_of_spades": True})
        assert len(r.deck) == 36
        dead_honour = False
        for d, p in _random_played(r, 120, seed=n):
            assert len(d.dead) == 1
            dealt = [c for s in range(n) for c in d.hand(s)]
            assert len(dealt) == 35 and d.dead[0] not in dealt
            assert sorted(dealt + list(d.dead)) == sorted(r.deck)
            assert d.turnup == d.hand(d.dealer)[-1]          # the 35th card turned up
            assert d.dead[0] not in p.play
            dead = d.dead[0]
            value = {"J": 11, "T": 10, "A": 4, "K": 3, "Q": 2}.get(format_card(dead)[0], 0) \
                if dead // 13 == d.trump else 0
            assert sum(p.honours) == 30 - value
            dead_honour |= value > 0
            if format_card(dead)[0] == "T" and dead // 13 == d.trump:
                assert p.ten_holder is None and p.ten_caught is None  # a dead Ten (§7.7)
        assert dead_honour, "no deal with a dead honour seen"


def test_revoke_hand_loses_only_its_points() -> None:
    out = records.score_record(dict(_we2_record(WE2_REVOKE_PLAY), players=4,
                                    variants={"revoke": "hand"}))
    assert [s["total"] for s in out["sides"]] == [0, 15]


def test_revoke_forfeit_points_go_to_the_opponents() -> None:
    out = records.score_record(dict(_we2_record(WE2_REVOKE_PLAY), players=4,
                                    variants={"revoke": "forfeit"}))
    assert [s["total"] for s in out["sides"]] == [0, 36]


def test_no_trump_first_lead() -> None:
    d = _we2_deal(variants={"no_trump_first_lead": True})
    # seat 0 leads first holding JS AS and plain cards: no spade may be led
    assert _legal_at(d, []) == set(cards(WE2_HANDS[0])) - set(cards("JS AS"))
    # later leads are free: seat 1 leads trick 1 and may lead a trump
    assert C("KS") in _legal_at(d, cards("AH TS 6H 7C"))
    # a leader holding only trumps may lead one (two players: seat 1's first set is spades)
    r = Rules("foster", 2, {"no_trump_first_lead": True})
    h1 = cards("6S 7S 8S 9S TS JS  AH KH QH JH TH 9H  AD KD QD JD TD 9D")
    h0 = cards("6H 7H 8H 6D 7D 8D  6C 7C 8C 9C TC JC  QC KC AC QS KS AS")  # dealer, AS up
    d2 = deal_from_hands(r, 0, [h0, h1], C("AS"))
    assert _legal_at(d2, []) == set(cards("6S 7S 8S 9S TS JS"))


def test_no_trump_first_lead_applies_to_every_set() -> None:
    r = Rules("foster", 2, {"no_trump_first_lead": True})
    checked = 0
    for i in range(40):
        d = deal(r, seed=17, index=i)
        p = play(d, script=[0] * r.n_dealt)
        for k in (6, 12):  # first leads of sets 2 and 3
            leader = p.tricks[k][0]
            hand = [c for c in d.hand(leader)[k:k + 6]]
            if any(c // 13 == d.trump for c in hand) and any(c // 13 != d.trump for c in hand):
                allowed = _legal_at(d, p.play[:2 * k])
                assert allowed == {c for c in hand if c // 13 != d.trump}
                checked += 1
        if checked >= 4:
            break
    assert checked >= 4


def test_exposed_trump_cannot_be_played_until_last_two_tricks() -> None:
    for n in (4, 2, 7):
        r = Rules("foster", n, {"exposed_trump": True})
        last_two = r.cards_per_player - 2
        for d, p in _random_played(r, 30, seed=n):
            assert p.play.index(d.turnup) // n >= last_two
    # the kernel never offers it earlier: the dealer (seat 3) follows a heart lead void in
    # hearts, holding the 6S turn-up: every card but the turn-up
    d = _we2_deal(variants={"exposed_trump": True})
    assert _legal_at(d, cards("AH TS 6H")) == set(cards(WE2_HANDS[3])) - {C("6S")}


def test_small_deal_whole_two_players_one_hand_of_18() -> None:
    r = Rules("foster", 2, {"small_deal": "whole"})
    assert (r.n_sets, r.cards_per_player, r.share) == (1, 18, 18)
    for d, p in _random_played(r, 10):
        assert len(d.set_hands) == 1 and len(d.hand(0)) == 18
        assert list(p.card_points) == [max(0, c - 18) for c in p.cards_taken]


@pytest.mark.parametrize("n,share", [(2, 18), (3, 12)])
def test_set_scoring_per_deal_share_of_the_whole_deal(n, share) -> None:
    r = Rules("foster", n, {"set_scoring": "per_deal"})
    assert r.n_sets == {2: 3, 3: 2}[n]       # still dealt in sets
    assert r.share == share
    for d, p in _random_played(r, 10):
        assert list(p.card_points) == [max(0, c - share) for c in p.cards_taken]


def test_target_any_number() -> None:
    assert Rules("foster", 4, {"target": 31}).target == 31
    g = _game([_we2_record()], variants={"target": 21})   # side 0 makes 21: reaching = >=
    assert (g["winner"], g["how"]) == (0, "reached")
    g = _game([_we2_record()], variants={"target": 22})
    assert g["how"] == "unfinished"


def test_ten_of_diamonds_bonus_ten_extra_unless_diamonds_trumps() -> None:
    # spades trumps: side 0 takes TD in trick 8, so 15 + 10
    p = _play_as(_we2_deal(variants={"ten_of_diamonds_bonus": True}), cards(WE2_PLAY))
    assert p.honours == (25, 15)
    # diamonds trumps: the TD counts once, as the trump Ten (all honours still 30)
    for d, p in _random_played(Rules("foster", 4, {"ten_of_diamonds_bonus": True}), 60):
        assert sum(p.honours) == (30 if d.trump == D else 40)


def test_ten_of_diamonds_bonus_with_no_trumps_is_ten_extra() -> None:
    """Diamonds are not trumps in a no-trump hand (jaques dealer_declares), so the bonus is
    10 extra on top of the 10 the TD scores as a Ten there: 88 + 10 honour points in all."""
    d = _we2_deal("jaques", {"dealer_declares": True, "ten_of_diamonds_bonus": True}, trump=4)
    p = _play_as(d, cards(WE2_PLAY[:11]))
    assert sum(p.honours) == 98


def test_card_points_off_honours_only() -> None:
    p = _play_as(_we2_deal(variants={"card_points": "off"}), cards(WE2_PLAY))
    assert p.card_points == (0, 0) and p.total == (15, 15)


def test_removed_six_clubs() -> None:
    for n in (5, 7):
        r = Rules("foster", n, {"removed_six": "C"})
        assert C("6C") not in r.deck and C("6S") in r.deck and len(r.deck) == 35


def test_must_trump_void_player_must_trump() -> None:
    d = _we2_deal(variants={"must_trump": True})
    # seat 1, void in hearts, must play one of its spades
    assert _legal_at(d, cards("AH")) == set(cards("TS KS QS 8S"))
    # following suit still comes first: seat 2 must play a heart
    assert _legal_at(d, cards("AH TS")) == set(cards("JH TH 9H 8H 7H 6H"))


def test_six_players_triples_two_sides_of_three() -> None:
    r = Rules("foster", 6, {"six_players": "triples"})
    assert [r.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert r.share == 18
    for d, p in _random_played(r, 5):
        assert list(p.card_points) == [max(0, c - 18) for c in p.cards_taken]


def test_tie_higher_total_wins() -> None:
    # target 15: both sides reach in the hand (21 and 15); the higher total wins
    g = _game([_we2_record()], variants={"target": 15, "tie": "higher_total"})
    assert (g["winner"], g["how"]) == (0, "higher_total")


def test_tie_replay_plays_another_hand() -> None:
    g = _game([_we2_record()], variants={"target": 15, "tie": "replay"})
    assert (g["finished"], g["how"], g["winner"]) == (False, "unfinished", None)


# =========================================================================== §4 jaques
def test_jaques_ten_second_best_trump() -> None:
    assert _check_trump_order(Rules("jaques", 4), "JTAKQ9876") > 20
    # a trick with the Ten and the Ace of trumps and no Jack: the Ten wins
    found = 0
    for d, p in _random_played(Rules("jaques", 4), 400, seed=8):
        own = _owner(d)
        ten, ace, jack = (d.trump * 13 + RANKS.index(x) for x in "TAJ")
        for _, cs, w in p.tricks:
            if ten in cs and ace in cs and jack not in cs:
                assert own[ten] == w
                found += 1
    assert found > 0


def test_jaques_honours_J3_T10_A4_K3_Q2_9_1_total_23() -> None:
    p = _play_as(_we2_deal("jaques"), cards(WE2_PLAY))
    # side 0: JS 3 + 9S 1 (trick 6) + AS 4 = 8; side 1: TS 10 + KS 3 + QS 2 = 15
    assert p.honours == (8, 15)
    for d, p in _random_played(Rules("jaques", 4), 30):
        assert sum(p.honours) == 23


def test_jaques_no_card_points() -> None:
    p = _play_as(_we2_deal("jaques"), cards(WE2_PLAY))
    assert p.card_points == (0, 0) and p.total == (8, 15)


def test_jaques_four_or_six_players() -> None:
    for n in (4, 6):
        assert Rules("jaques", n).players == n
    for n in (2, 3, 5, 7, 8):
        with pytest.raises(RulesError) as e:
            Rules("jaques", n)
        assert (e.value.field, e.value.why) == ("players", "players out of range")


def test_jaques_six_players_two_sides_of_three() -> None:
    r = Rules("jaques", 6)
    assert [r.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    d, p = next(_random_played(r, 1))
    assert len(p.total) == 2 and sum(p.cards_taken) == 36


def test_jaques_six_as_three_pairs() -> None:
    r = Rules("jaques", 6, {"six_as_three_pairs": True})
    assert [r.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize("players", [6, 4])
@pytest.mark.parametrize("variants", [
    {"six_as_three_pairs": True, "six_players": "triples"},   # triples is jaques' default
    {"six_players": "triples", "six_as_three_pairs": "yes"},
    {"six_as_three_pairs": False, "six_players": "pairs"},
])
def test_jaques_six_player_switches_that_contradict_are_refused(variants, players) -> None:
    # a value written out counts as said even when it is the preset's default (§4, §7.8)
    with pytest.raises(RulesError) as e:
        Rules("jaques", players, variants)
    assert (e.value.field, e.value.why) == ("variants", "bad variant value")
    assert " but six_as_three_pairs=" in str(e.value)


@pytest.mark.parametrize("variants,sides", [
    ({"six_as_three_pairs": True, "six_players": "pairs"}, 3),
    ({"six_as_three_pairs": False, "six_players": "triples"}, 2),
    ({"six_players": "triples"}, 2), ({"six_as_three_pairs": False}, 2),
    ({"six_players": "pairs"}, 3),
])
def test_jaques_six_player_switches_that_agree_are_accepted(variants, sides) -> None:
    assert Rules("jaques", 6, variants).n_sides == sides


def test_jaques_turnup_added_to_dealers_hand_at_once() -> None:
    d = _we2_deal("jaques")
    # the dealer (seat 3), void in hearts, may play the turned-up 6S in the very first trick
    assert C("6S") in _legal_at(d, cards("AH TS 6H"))


def test_jaques_higher_total_wins() -> None:
    # target 8: side 0 makes 8, side 1 15, both reach: the higher total wins
    g = _game([_we2_record()], "jaques", {"target": 8})
    assert (g["winner"], g["how"]) == (1, "higher_total")


def test_jaques_equal_totals_play_another_hand() -> None:
    # 8 / 15, then the same hand one seat on: 15 / 8 more: 23 / 23 at target 23
    g = _game([_we2_record(), _we2_record(rotated=True)], "jaques", {"target": 23})
    assert g["running"] == [[8, 15], [23, 23]]
    assert (g["finished"], g["how"]) == (False, "unfinished")


def test_jaques_revoke_forfeit() -> None:
    assert Rules("jaques", 4).revoke_penalty == "forfeit"
    out = records.score_record(dict(_we2_record(WE2_REVOKE_PLAY), rules="jaques", players=4))
    assert out["revoke"]["penalty"] == "forfeit"
    assert [s["total"] for s in out["sides"]] == [0, 23]     # side 0's 8 go to side 1


def test_jaques_dealer_declares_trumps_or_no_trumps() -> None:
    # the dealer names spades: the same play as with the turn-up
    p = _play_as(_we2_deal("jaques", {"dealer_declares": True}, trump=S), cards(WE2_PLAY))
    assert p.honours == (8, 15)
    # no trumps: the highest card of the led suit wins (TS no longer beats the AH) and
    # A K Q J 10 of every suit score 4 3 2 3 10: 22 a suit, 88 in all
    d = _we2_deal("jaques", {"dealer_declares": True}, trump=4)
    p = _play_as(d, cards("AH TS 6H 7C"))
    assert p.tricks[0][2] == 0
    assert sum(p.honours) == 88
    assert p.ten_holder is None and p.ten_caught is None


def test_jaques_deck52_thirteen_each_four_players_only() -> None:
    r = Rules("jaques", 4, {"deck52": True})
    assert len(r.deck) == 52 and r.cards_per_player == 13
    d, p = next(_random_played(r, 1))
    assert sum(p.cards_taken) == 52 and sum(p.honours) == 23
    with pytest.raises(RulesError) as e:
        Rules("jaques", 6, {"deck52": True})
    assert (e.value.field, e.value.why) == ("players", "players out of range")


# =========================================================================== §5 french52
def test_french52_52_cards_13_each_two_sides() -> None:
    r = Rules("french52", 4)
    assert len(r.deck) == 52 and r.cards_per_player == 13
    assert [r.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    with pytest.raises(RulesError):
        Rules("french52", 6)


def test_french52_trump_order_J_A_K_Q_T_down_to_2() -> None:
    assert _check_trump_order(Rules("french52", 4), "JAKQT98765432") > 40


def test_french52_honours_with_ten_of_diamonds_bonus() -> None:
    for d, p in _random_played(Rules("french52", 4), 40):
        assert sum(p.honours) == (30 if d.trump == D else 40)


def test_french52_target_40_no_card_points() -> None:
    r = Rules("french52", 4)
    assert r.target == 40 and not r.card_points
    for d, p in _random_played(r, 10):
        assert p.card_points == (0, 0) and p.total == p.honours


# =========================================================================== validation
def test_unknown_preset_refused() -> None:
    with pytest.raises(RulesError) as e:
        Rules("whist", 4)
    assert (e.value.field, e.value.why) == ("rules", "unknown preset")


@pytest.mark.parametrize("preset,variants", [
    ("foster", {"banana": True}),
    ("foster", {"dealer_declares": True}),     # a jaques switch
    ("french52", {"deck52": True}),
])
def test_unknown_variant_refused(preset, variants) -> None:
    with pytest.raises(RulesError) as e:
        Rules(preset, 4, variants)
    assert (e.value.field, e.value.why) == ("variants", "unknown variant")


@pytest.mark.parametrize("variants", [
    {"revoke": "x"}, {"target": 0}, {"target": "abc"}, {"target": True}, {"target": 2.5},
    {"everyone_alone": "maybe"}, {"small_deal": "half"}, {"removed_six": "H"},
    {"card_points": "sometimes"}, {"tie": "coin"}, {"six_players": "quads"},
    {"set_scoring": 3},
])
def test_bad_variant_value_refused(variants) -> None:
    with pytest.raises(RulesError) as e:
        Rules("foster", 4, variants)
    assert (e.value.field, e.value.why) == ("variants", "bad variant value")


@pytest.mark.parametrize("name", [sw.name for sw in REGISTRY])
def test_every_bad_variant_value_lists_the_allowed_values(name) -> None:
    # review Low 8: must_trump=maybe said only 'bad variant value (must_trump="maybe")'
    sw = next(s for s in REGISTRY if s.name == name)
    preset = "jaques" if "foster" not in sw.defaults else "foster"
    for bad in ("maybe", True) if sw.kind == "int" else ("maybe",):
        with pytest.raises(RulesError) as e:
            Rules(preset, 4, {name: bad})
        line = str(e.value)
        assert (e.value.field, e.value.why) == ("variants", "bad variant value")
        want = ("true or false" if sw.kind == "bool" else "whole number" if sw.kind == "int"
                else ", ".join(sw.kind[:-1]) + " or " + sw.kind[-1])
        assert want in line, line


@pytest.mark.parametrize("preset,players,variants", [
    ("foster", 1, {}), ("foster", 9, {}), ("foster", 0, {}), ("jaques", 5, {}),
    ("french52", 6, {}), ("jaques", 6, {"deck52": True}),
])
def test_players_out_of_range_refused(preset, players, variants) -> None:
    with pytest.raises(RulesError) as e:
        Rules(preset, players, variants)
    assert (e.value.field, e.value.why) == ("players", "players out of range")


def test_players_not_a_number_says_so() -> None:
    """The why names the real problem: a word is not a whole number (not 'out of range')."""
    with pytest.raises(RulesError) as e:
        Rules("foster", "four")
    assert (e.value.field, e.value.why) == ("players", "not a whole number")


def test_validation_order_rules_then_variants_then_players() -> None:
    with pytest.raises(RulesError) as e:
        Rules("whist", 9, {"banana": 1})
    assert e.value.field == "rules"
    with pytest.raises(RulesError) as e:
        Rules("foster", 9, {"banana": 1})
    assert e.value.field == "variants"


def test_rules_from_toml_good_file(tmp_path) -> None:
    f = tmp_path / "r.toml"
    f.write_text('rules = "foster"\nplayers = 5\n[variants]\nkeep_six_of_spades = true\n'
                 'target = 31\n')
    r = Rules.from_toml(f)
    assert (r.preset, r.players, r.target, r.keep_dead_card) == ("foster", 5, 31, True)
    # options given override the file
    r2 = Rules.from_options(None, 7, ("target=51",), f)
    assert (r2.players, r2.target, r2.keep_dead_card) == (7, 51, True)


def test_rules_from_toml_bad_toml(tmp_path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text('rules = "foster\nplayers = = 4\n')
    with pytest.raises(ParseError) as e:
        Rules.from_toml(f)
    assert e.value.field == "rules-file" and "TOML" in e.value.why


def test_rules_from_toml_unknown_key(tmp_path) -> None:
    f = tmp_path / "u.toml"
    f.write_text('rules = "foster"\nplayers = 4\ncolour = "red"\n')
    with pytest.raises(ParseError) as e:
        Rules.from_toml(f)
    assert (e.value.field, e.value.why) == ("colour", "unknown field")
    assert e.value.detail == "rules-file: known: players, rules, variants"


def test_rules_from_toml_unknown_key_names_the_nearest(tmp_path) -> None:
    f = tmp_path / "u.toml"
    f.write_text('rules = "foster"\nplayer = 4\n')
    with pytest.raises(ParseError) as e:
        Rules.from_toml(f)
    assert (e.value.field, e.value.why) == ("player", "unknown field")
    assert "did you mean 'players'?" in e.value.detail


def test_rules_from_toml_not_utf8(tmp_path) -> None:
    f = tmp_path / "latin.toml"
    f.write_bytes('rules = "foster" # caf\xe9\n'.encode("latin-1"))
    with pytest.raises(ParseError) as e:
        Rules.from_toml(f)
    assert (e.value.field, e.value.why) == ("rules-file", "not UTF-8 text")


def test_unknown_switch_names_the_nearest() -> None:
    with pytest.raises(RulesError) as e:
        Rules("foster", 4, {"exposed_trmp": True})
    assert e.value.why == "unknown variant"
    assert "did you mean 'exposed_trump'?" in e.value.detail


def test_rules_from_toml_bad_values_and_missing_file(tmp_path) -> None:
    f = tmp_path / "v.toml"
    f.write_text('rules = "jaques"\nplayers = 5\n')
    with pytest.raises(RulesError) as e:
        Rules.from_toml(f)
    assert (e.value.field, e.value.why) == ("players", "players out of range")
    f.write_text('rules = "foster"\n[variants]\nrevoke = "never"\n')
    with pytest.raises(RulesError) as e:
        Rules.from_toml(f)
    assert (e.value.field, e.value.why) == ("variants", "bad variant value")
    with pytest.raises(CatchTenError) as e:
        Rules.from_toml(tmp_path / "missing.toml")
    assert e.value.field == "rules-file"


@pytest.mark.parametrize("scores, ok", [
    ((0, 40), True), ([40, 40], True), ((41, 0), False), ((0, -1), False),
    ((0,), False), ((0, 0, 0), False), ((True, 0), False), ((1.0, 0), False),
    (("3", 0), False), ("30 0", False), (None, False)])
def test_a_game_score_is_one_whole_number_per_side_below_the_target(scores, ok):
    """§2/§3 ``target``: a side at the target has won, so a score before a deal is below
    it; one check, shared by positions, game simulations and equity look-ups."""
    r = Rules("foster", 4)                       # target 41, two sides
    problem = r.score_problem(scores)
    assert (problem is None) == ok
    if not ok:
        assert "0 to 40" in problem and "2 whole numbers" in problem
    r31 = Rules("foster", 4, variants={"target": 31})
    assert (r31.score_problem((30, 0)) is None) and r31.score_problem((31, 0))


def test_positions_and_game_simulations_refuse_the_same_scores():
    from catchten_sim.games import simulate_games
    from catchten_sim.position import Position
    r = Rules("foster", 4)
    with pytest.raises(CatchTenError) as games_err:
        simulate_games(r, n_games=10, start_scores=(41, 0))
    data = {"rules": "foster", "players": 4, "dealer": 0, "seat": 1,
            "hand": ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S",
                     "2S"], "turnup": "2H", "score": [41, 0]}
    with pytest.raises(CatchTenError) as pos_err:
        Position.from_dict(data, r)
    assert games_err.value.field == pos_err.value.field == "score"
    assert r.score_problem([41, 0]) in games_err.value.line()
    assert r.score_problem([41, 0]) in pos_err.value.line()


def test_the_solver_objective_asks_the_card_points_rule():
    """solve.py picks its honours-only objective when taking every card of a scoring unit
    scores no card points; that must be exactly the ``card_points`` switch being off, in
    every preset and player count (docs/rules.md §2, §3)."""
    from catchten_sim.state import card_points
    seen = set()
    for preset in ("foster", "jaques", "french52"):
        for n in range(2, 9):
            for cp in ("on", "off"):
                try:
                    r = Rules(preset, n, variants={"card_points": cp})
                except RulesError:
                    continue
                unit = r.set_size if r.per_set_scoring else r.cards_per_player  # as solve.py
                assert (card_points(r, n * unit) == 0) == (not r.card_points), (preset, n)
                seen.add((preset, r.card_points))
    assert len(seen) >= 4          # both values met in more than one preset


def test_the_count_out_order_shown_lists_the_steps_these_rules_score():
    """docs/rules.md §7.10: Ten, the 10♦ bonus, card points, A, K, Q, J (jaques' 9 last);
    a step the rules do not score (card points off, no 10♦ bonus) is not shown."""
    show = lambda r: r.describe()["count_out_order"]          # noqa: E731
    assert show(Rules("foster", 4)) == "Ten, cards, Ace, King, Queen, Jack"
    assert "cards" not in show(Rules("french52", 4))
    assert show(Rules("foster", 4, variants={"ten_of_diamonds_bonus": True})) == \
        "Ten, 10♦ bonus, cards, Ace, King, Queen, Jack"
    assert show(Rules("jaques", 4, variants={"tie": "count_out"})).endswith("Jack, Nine")
    assert show(Rules("jaques", 4)) is None                   # higher_total: no count-out


def test_catchten_rules_shows_the_no_trump_honours_with_dealer_declares() -> None:
    """jaques ``dealer_declares`` (RULES.md: "the A, K, Q, J and 10 of every suit score at
    their honour values", jaques honours J 3, 10 10, A 4, K 3, Q 2): shown beside the
    trump honours; no such line without the switch."""
    got = Rules("jaques", 4, {"dealer_declares": True}).describe()["no_trump_honours"]
    assert got == {"A": 4, "K": 3, "Q": 2, "J": 3, "T": 10}
    assert Rules("jaques", 4).describe()["no_trump_honours"] is None
    assert Rules("foster", 4).describe()["no_trump_honours"] is None


def test_catchten_rules_lists_the_switches_that_apply_to_the_preset_and_players() -> None:
    """The rules table's switch row (RULES.md §3, §4 say where each switch applies): at
    jaques 4 players no foster-only switch (small sets, the removed six, the laid-aside
    six, foster's six-player sides); at foster 5 players the six of spades switches; the
    full list stays in ``variants``."""
    jaques = Rules("jaques", 4).describe()
    shown = set(jaques["switches_in_effect"])
    assert {"dealer_declares", "deck52", "must_trump", "target", "tie"} <= shown
    assert not shown & {"small_deal", "removed_six", "keep_six_of_spades", "six_players",
                        "set_scoring", "six_as_three_pairs"}
    assert set(jaques["variants"]) > shown
    five = set(Rules("foster", 5).describe()["switches_in_effect"])
    assert {"keep_six_of_spades", "removed_six"} <= five
    assert not five & {"everyone_alone", "small_deal", "dealer_declares"}
    assert "six_as_three_pairs" in Rules("jaques", 6).describe()["switches_in_effect"]


def test_equal_rules_share_their_tables_and_other_rules_do_not():
    """The kernels' tables are built once per set of rules (each record builds its own
    Rules); a switch that changes play or scoring gets its own tables."""
    a = Rules("foster", 4, {"must_trump": True})
    b = Rules("foster", 4, {"must_trump": True})
    assert a.tables() is b.tables()
    c = Rules("foster", 4)
    assert c.tables() is not a.tables()
    assert not np.array_equal(c.tables().play_rules, a.tables().play_rules)
    assert Rules("foster", 5).tables().params[0] == 5 != a.tables().params[0]
    assert a.deck == c.deck and a.deck is not a.deck    # a new list each time
