"""``advise --evaluator dd`` against an independent exact answer (the advice's exactness): on
random small positions of every preset, player count and play switch, the number of
consistent deals and each card's sum of double-dummy values equal those of
``bruteforce.exact_advice`` (every deal of the unseen cards the reference engine finds
consistent with the play, each solved by brute force; the package's information sets
are not used)."""
from __future__ import annotations

import random

import pytest

from bruteforce import exact_advice, random_ending
from exactness import ADVISE_CONFIGS as CONFIGS, check_advice


@pytest.mark.parametrize("preset, players, variants", CONFIGS,
                         ids=[f"{p}{n}-" + "-".join(f"{k}={v}" for k, v in sorted(var.items()))
                              for p, n, var in CONFIGS])
def test_advise_dd_equals_the_independent_enumeration(preset, players, variants):
    rng = random.Random(f"{preset}{players}{sorted(variants.items())}")
    # small endings, so that the brute force stays quick; with two players their unseen
    # cards are the opponent's, one deal (scripts/check_advise_exact.py goes further)
    lefts = (1, 2, 3) if players <= 5 else (1, 2)
    checked = several = 0
    for _ in range(60):
        rec = random_ending(rng, preset, players, variants, rng.choice(lefts))
        want = exact_advice(rec, 500)
        if want is None:
            continue
        assert check_advice(rec, 500, want) is True
        checked += 1
        several += want["n_consistent_deals"] > 1
        if checked >= 3 and several:
            break
    assert checked >= 2
    assert several >= 1 or players == 2


def test_shown_voids_and_must_trump_cut_the_consistent_deals():
    # the count is the fillings of the unseen places the play allows: fewer than all of
    # them once a hand has shown a void (and with must_trump, no trumps)
    rng = random.Random(11)
    cut = {False: 0, True: 0}
    for k in range(300):
        must = k % 2 == 1
        rec = random_ending(rng, "foster", 4, {"must_trump": True} if must else {}, 3)
        want = exact_advice(rec, 1000)
        if want is not None and 0 < want["n_consistent_deals"] < want["n_fillings"]:
            cut[must] += 1
            assert check_advice(rec, 1000, want) is True
        if min(cut.values()) >= 2:
            return
    pytest.fail(f"too few positions with an inference: {cut}")


def _trump_led_first(rng: random.Random, n_after: int) -> dict:
    """Three players (foster: two sets of six) under ``no_trump_first_lead``: the leader of
    set 2 was dealt six trumps for it and leads one; then ``n_after`` more cards at random.
    Set 1 is dealt from the cards those six trumps and the turn-up leave, and played at
    random first (its last trick's winner leads set 2)."""
    import reference as ref
    variants = {"no_trump_first_lead": True}
    r = ref.ref_rules("foster", 3, variants)
    dealer = rng.randrange(3)
    deck = list(r.deck)
    rng.shuffle(deck)
    trump_suit = ref.suit_of(deck[0])
    trumps = [c for c in deck if ref.suit_of(c) == trump_suit]
    turnup, six = trumps[0], trumps[1:7]
    rest = [c for c in deck if c != turnup and c not in six]          # 29 cards
    set1 = [rest[6 * s:6 * s + 6] for s in range(3)]
    left = rest[18:] + [c for c in trumps[7:] if c not in rest]      # 11 more for set 2

    def play_set1(hands):
        deal = ref._Deal(r, dealer, hands, turnup)
        for _ in range(18):
            legal = deal.legal()
            deal.play(legal[rng.randrange(len(legal))])
        return deal
    first = play_set1([set1[s] + (six if s == dealer else left[:6]) for s in range(3)])
    played = list(first.played)
    lead = first.leader
    # set 2: the leader takes the six trumps (the dealer's last card is the turn-up)
    spare = list(left)
    set2 = []
    for s in range(3):
        if s == lead:
            h = six if s != dealer else six[:5] + [turnup]
            if s == dealer:
                spare.append(six[5])
        else:
            k = 6 if s != dealer else 5
            h, spare = spare[:k], spare[k:]
            if s == dealer:
                h = h + [turnup]
        set2.append(h)
    hands = [set1[s] + set2[s] for s in range(3)]
    deal = ref._Deal(r, dealer, hands, turnup)
    for i, c in enumerate(played):
        deal.check_and_play(c, i)
    assert deal.leader == lead and deal.revoke is None
    play = list(played)
    for k in range(1 + n_after):
        legal = deal.legal()
        c = legal[rng.randrange(len(legal))]
        if k == 0:
            assert ref.suit_of(c) == trump_suit
        deal.play(c)
        play.append(c)
    return {"rules": "foster", "variants": variants, "players": 3, "dealer": dealer,
            "hands": [[ref.card_str(c) for c in h] for h in hands],
            "turnup": ref.card_str(turnup), "dead": [],
            "play": [ref.card_str(c) for c in play]}


def test_a_trump_led_to_a_set_s_first_trick_shows_trumps_only():
    # no_trump_first_lead: a leader who leads a trump to a set's first trick holds nothing
    # else, so its unseen cards are trumps. Random endings almost never show it (six
    # trumps in one set), so these deals give set 2's leader six trumps; the positions
    # counted are those where the rule is what cuts the deals (fewer than without it)
    rng = random.Random(3)
    bites = 0
    for k in range(60):
        rec = _trump_led_first(rng, 4 + k % 3)
        want = exact_advice(rec, 4000)
        if want is None:
            continue
        assert check_advice(rec, 4000, want) is True
        without = exact_advice(dict(rec, variants={}), 4000, values=False)
        bites += want["n_consistent_deals"] < without["n_consistent_deals"]
        if bites >= 2:
            return
    pytest.fail(f"the switch cut the consistent deals in {bites} positions")
