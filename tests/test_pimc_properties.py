"""catchten_sim.fusion and .endings (the library of scripts/pimc_properties.py): the small
ending engine agrees with the solver, the strategy-fusion values are right (the reduced
search equals the plain brute force; a committed player never beats PIMC's own estimate),
and the shown mistake stays one."""
from __future__ import annotations

from itertools import product

import pytest

from catchten_sim import Rules
from catchten_sim import endings as E
from catchten_sim import fusion as F
from catchten_sim.cards import parse_card
from catchten_sim.state import rule_tables

R4 = Rules("foster", 4)


def test_ending_engine_agrees_with_the_solver():
    for i in range(4):
        d, prefix = E.ending(R4, 1, i, 3)
        node = F.node_of(d, prefix)
        t = rule_tables(R4, d.trump)
        side = R4.side_of(node.to_move)
        sol = F.solve_children(R4, d, prefix)
        mine = {}
        for c in F.legal(node):
            nxt, win, cards = F.child(node, c, t)
            mine[c] = (F.trick_value(R4, t, win, cards, side) if win >= 0 else 0) \
                + F.dd_value(R4, t, nxt, side, {})
        assert set(sol) == set(mine)
        assert len({sol[c] - mine[c] for c in sol}) == 1     # the same up to banked points


def test_fusion_values_reduced_search_equals_brute_force():
    checked = 0
    for i, into in product(range(3), range(4)):
        d, prefix = E.ending(R4, 1, i, 3, into)
        base = F.node_of(d, prefix)
        worlds = F.worlds_of(d, prefix, base.to_move, 120)
        if worlds is None or len(F.legal(base)) < 2:
            continue
        t = rule_tables(R4, d.trump)
        a = F.fusion_values(R4, t, worlds, base.to_move, 10, True)
        b = F.fusion_values(R4, t, worlds, base.to_move, 10, False)
        if a is None or b is None:
            continue
        checked += 1
        for c in a:
            assert a[c][0] == b[c][0] and a[c][1] == pytest.approx(b[c][1], abs=1e-9)
            assert a[c][1] <= a[c][0] + 1e-9       # PIMC's mean is an upper bound
    assert checked >= 2


def test_the_readme_strategy_fusion_mistake():
    """Deal 71 of seed 2, heuristic play, 26 cards in (README): PIMC ruffs (7S or 9S),
    yet for a player who cannot see the cards the discard JD is worth more."""
    d, prefix = E.ending(R4, 2, 71, 3, 2)
    base = F.node_of(d, prefix)
    seat = base.to_move
    worlds = F.worlds_of(d, prefix, seat, 1000)
    assert seat == 0 and len(worlds) == 120
    vals = F.fusion_values(R4, rule_tables(R4, d.trump), worlds, seat)
    s7, s9, jd = (parse_card(x) for x in ("7S", "9S", "JD"))
    assert vals[s7][0] == vals[s9][0] > vals[jd][0]             # PIMC: ruff
    assert vals[jd][1] > vals[s7][1] == vals[s9][1]             # committed: discard
    assert vals[jd][0] == vals[jd][1] and vals[s7][2] > 0 and vals[jd][2] == 0


def test_the_readme_fusion_mistake_of_deal_262():
    """Deal 262 of seed 2, 26 cards in, trumps D, seat 3 holds 9H 6D AD after TC, QC:
    PIMC discards the 9H (it will always guess the trump play next trick), the ruff with
    the 6D is better for a player who cannot see the Jack of trumps."""
    d, prefix = E.ending(R4, 2, 262, 3, 2)
    base = F.node_of(d, prefix)
    worlds = F.worlds_of(d, prefix, base.to_move, 1000)
    assert base.to_move == 3 and len(worlds) == 15
    vals = F.fusion_values(R4, rule_tables(R4, d.trump), worlds, 3)
    h9, d6, da = (parse_card(x) for x in ("9H", "6D", "AD"))
    assert vals[h9][0] == pytest.approx(70 / 15) and vals[d6][0] == pytest.approx(2.8)
    assert vals[h9][1] == pytest.approx(2.4) and vals[d6][1] == pytest.approx(2.8)
    assert max(vals, key=lambda c: vals[c][0]) == h9
    assert max(vals, key=lambda c: vals[c][1]) == d6
