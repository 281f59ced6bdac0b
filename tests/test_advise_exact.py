"""``advise --evaluator dd`` against an independent exact answer (the advice's exactness): on
random small positions of every preset, player count and play switch, the number of
consistent deals and each card's sum of double-dummy values equal those of
``bruteforce.exact_advice`` (every deal of the unseen cards the reference engine finds
consistent with the play, each solved by brute force; the package's information sets
are not used)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from check_advise_exact import CONFIGS, check_one  # noqa: E402

from bruteforce import exact_advice, random_ending  # noqa: E402


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
        assert check_one(rec, 500, want) is True
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
            assert check_one(rec, 1000, want) is True
        if min(cut.values()) >= 2:
            return
    pytest.fail(f"too few positions with an inference: {cut}")
