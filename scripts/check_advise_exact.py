"""``advise --evaluator dd`` against an independent answer on random small positions of
every preset, player count and play/scoring switch: every deal of the unseen cards that
the reference engine finds consistent with the play, each solved by brute force
(``tests/bruteforce.exact_advice``; no information sets of the package). Compares the
number of consistent deals and every card's sum of values exactly.
The positions hold one to three cards a hand, so with six-card sets they are in the last
set. With ``dealer_declares`` the declared trump (a suit or NT) is ``tests/bruteforce``'s own
``trump`` key, as a position writes it (a hand record has no field for it).
``tests/test_advise_exact.py`` runs a few dozen; this script runs as many as asked:

    PYTHONPATH=$PWD python scripts/check_advise_exact.py --seconds 600 --seed 1
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from bruteforce import exact_advice, random_ending  # noqa: E402

from catchten_sim.advise import advise  # noqa: E402
from catchten_sim.position import Position  # noqa: E402

#: (preset, players, variants): every preset and player count, and the switches that
#: change what the play tells (voids, must_trump, no_trump_first_lead, the exposed
#: turn-up, a card laid aside), the score or the trump (dealer_declares)
CONFIGS = [
    ("foster", 4, {}), ("foster", 4, {"must_trump": True}),
    ("foster", 4, {"exposed_trump": True}), ("foster", 4, {"no_trump_first_lead": True}),
    ("foster", 4, {"ten_of_diamonds_bonus": True, "card_points": "off"}),
    ("foster", 4, {"everyone_alone": True}),
    ("foster", 2, {}), ("foster", 2, {"set_scoring": "per_deal"}),
    ("foster", 2, {"small_deal": "whole"}),
    ("foster", 2, {"no_trump_first_lead": True, "must_trump": True}),
    ("foster", 3, {}), ("foster", 3, {"set_scoring": "per_deal", "exposed_trump": True}),
    ("foster", 5, {}), ("foster", 5, {"keep_six_of_spades": True}),
    ("foster", 5, {"removed_six": "C", "must_trump": True}),
    ("foster", 6, {}), ("foster", 6, {"six_players": "triples"}),
    ("foster", 7, {"keep_six_of_spades": True}), ("foster", 8, {}),
    ("jaques", 4, {}), ("jaques", 4, {"deck52": True}), ("jaques", 6, {}),
    ("jaques", 6, {"six_as_three_pairs": True, "must_trump": True}),
    ("jaques", 4, {"dealer_declares": True}), ("jaques", 6, {"dealer_declares": True}),
    ("jaques", 4, {"dealer_declares": True, "deck52": True, "must_trump": True}),
    ("french52", 4, {}), ("french52", 4, {"exposed_trump": True, "no_trump_first_lead": True}),
]


def check_one(record: dict, max_deals: int = 4000, want: dict | None = None) -> str | None | bool:
    """None: too many unseen deals; True: agrees; else the disagreement. ``want``: the
    record's :func:`exact_advice`, when the caller has it already."""
    want = exact_advice(record, max_deals) if want is None else want
    if want is None:
        return None
    keys = ("rules", "players", "variants", "dealer", "turnup", "play", "dead", "trump")
    pos = Position.from_dict({k: record[k] for k in keys if k in record}
                             | {"seat": want["seat"], "hand": want["hand"]})
    adv = advise(pos, evaluator="dd", threads=1, exact_max=10 ** 6)
    got = {x.name: x.value_sum for x in adv.candidates}
    if adv.exact and adv.n_samples == want["n_consistent_deals"] and got == want["value_sum"]:
        return True
    return (f"{record}: want {want['n_consistent_deals']} deals {want['value_sum']}, got "
            f"{adv.n_samples} deals {got} (exact {adv.exact})")


def random_position(rng: random.Random) -> dict:
    """A random ending of a random configuration, small enough to enumerate mostly."""
    preset, players, variants = rng.choice(CONFIGS)
    left = rng.choice((1, 2, 2, 3)) if players <= 5 else rng.choice((1, 1, 2))
    return random_ending(rng, preset, players, variants, left)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.time()
    n = big = 0
    bad = []
    while time.time() - t0 < args.seconds:
        res = check_one(random_position(rng))
        if res is None:
            big += 1
            continue
        n += 1
        if res is not True:
            bad.append(res)
            print(res)
    print(f"{n - len(bad)} of {n} positions agree ({big} too big to enumerate, "
          f"{time.time() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
