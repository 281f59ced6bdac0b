"""The exactness checks of the solver and of ``advise --evaluator dd`` against the brute force
(``bruteforce.py``, built on the independent reference engine): the configurations and one
check each. ``test_solve.py`` and ``test_advise_exact.py`` run a few; the long runs are
``scripts/check_solve_exact.py`` and ``scripts/check_advise_exact.py``.
"""
from __future__ import annotations

import random

from bruteforce import brute_values, exact_advice, random_ending

from catchten_sim.advise import advise
from catchten_sim.cards import format_card
from catchten_sim.position import Position
from catchten_sim.solve import Solver, solve, solve_values


# ------------------------------------------------------------------ the solver
#: (preset, players, variants, cards left per hand): every preset, player count and switch
#: that changes play or scoring; sets crossed where the brute force stays quick
SOLVE_CONFIGS = [
    ("foster", 2, {}, 4), ("foster", 2, {}, 7), ("foster", 2, {"set_scoring": "per_deal"}, 7),
    ("foster", 2, {"small_deal": "whole"}, 5),
    ("foster", 2, {"no_trump_first_lead": True}, 7),
    ("foster", 3, {}, 4), ("foster", 3, {"set_scoring": "per_deal"}, 4),
    ("foster", 3, {"small_deal": "whole"}, 3), ("foster", 3, {}, 7),
    ("foster", 4, {}, 4), ("foster", 4, {"ten_of_diamonds_bonus": True}, 4),
    ("foster", 4, {"must_trump": True}, 4), ("foster", 4, {"exposed_trump": True}, 4),
    ("foster", 4, {"card_points": "off"}, 4), ("foster", 4, {"everyone_alone": True}, 3),
    ("foster", 5, {}, 3), ("foster", 5, {"keep_six_of_spades": True}, 3),
    ("foster", 5, {"removed_six": "C"}, 3),
    ("foster", 6, {}, 3), ("foster", 6, {"six_players": "triples"}, 3),
    ("foster", 6, {"everyone_alone": True}, 2),
    ("foster", 7, {}, 2), ("foster", 7, {"keep_six_of_spades": True}, 2),
    ("foster", 8, {}, 2), ("foster", 8, {"ten_of_diamonds_bonus": True, "must_trump": True}, 2),
    ("jaques", 4, {}, 4), ("jaques", 6, {}, 3), ("jaques", 6, {"six_as_three_pairs": True}, 3),
    ("jaques", 4, {"deck52": True}, 4), ("jaques", 6, {"card_points": "on"}, 3),
    ("french52", 4, {}, 4), ("french52", 4, {}, 5),
    ("french52", 4, {"card_points": "on", "exposed_trump": True}, 3),
]


def check_solver(per_config: int, seed: int, verbose: bool = False, only: str | None = None,
                 budgets: bool = True, part: tuple[int, int] = (0, 1)
                 ) -> tuple[int, list[str]]:
    """Solve ``per_config`` random endings of every configuration (``only``: those of this
    preset); with ``budgets`` each ending is solved again under a random tiny node budget,
    whose proven ranges must hold the exact values (issue 26). ``part`` ``(k, parts)``:
    only the endings whose number is ``k`` modulo ``parts`` (the same endings as a whole
    run draws: the parts of one seed together are that run). Returns (count, failures)."""
    rng = random.Random(seed)
    n = 0
    bad = []
    for preset, players, variants, left in SOLVE_CONFIGS:
        if only and preset != only:
            continue
        for _ in range(per_config):
            rec = random_ending(rng, preset, players, variants, rng.randint(1, left))
            budget = rng.choice((1, 2, 5, 20, 100, 1000))
            n += 1
            if (n - 1) % part[1] != part[0]:
                continue
            to_move, want = brute_values(rec)
            got_move, best, vals = solve_values(rec)
            got = {format_card(c): v for c, v in vals.items()}
            if got_move != to_move or got != want or best != max(want.values()):
                bad.append(f"{preset} {players} {variants}: {rec} want {to_move} {want} got "
                           f"{got_move} {got}")
                if verbose:
                    print(bad[-1])
            if budgets:
                sol = solve(rec, solver=Solver(node_limit=budget))
                top = max(want.values())
                rg = sol.ranges or {}
                vr = sol.value_range or (top + 1, top - 1)
                if set(rg) != set(want) or not vr[0] <= top <= vr[1] or any(
                        not rg[c][0] <= v <= rg[c][1] for c, v in want.items()):
                    bad.append(f"{preset} {players} {variants} budget {budget}: {rec} want "
                               f"{want} got ranges {rg}")
                    if verbose:
                        print(bad[-1])
    return n, bad


# ------------------------------------------------------------------ advise --evaluator dd
#: (preset, players, variants): every preset and player count, and the switches that
#: change what the play tells (voids, must_trump, no_trump_first_lead, the exposed
#: turn-up, a card laid aside), the score or the trump (dealer_declares)
ADVISE_CONFIGS = [
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


def check_advice(record: dict, max_deals: int = 4000,
                 want: dict | None = None) -> str | None | bool:
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


def random_advice_position(rng: random.Random) -> dict:
    """A random ending of a random configuration, small enough to enumerate mostly."""
    preset, players, variants = rng.choice(ADVISE_CONFIGS)
    left = rng.choice((1, 2, 2, 3)) if players <= 5 else rng.choice((1, 1, 2))
    return random_ending(rng, preset, players, variants, left)
