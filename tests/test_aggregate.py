"""The streamed summaries count what they say they count."""
import numpy as np
import pytest

from catchten_sim import Rules
from catchten_sim.aggregate import wilson
from catchten_sim.play import deal, play
from catchten_sim.simulate import simulate


@pytest.mark.parametrize("players,variants", [(4, {}), (6, {}), (6, {"six_players": "triples"}),
                                              (5, {}), (2, {})])
def test_value_of_a_holding_counts_each_side_once_per_deal(players, variants):
    rules = Rules("foster", players, variants)
    res = simulate(rules, "random", n_deals=3000, seed=11, threads=1)
    h = res.acc.holding_frame()
    assert h.sides.sum() == rules.n_sides * 3000


def test_value_of_a_holding_matches_deals_played_one_by_one():
    rules = Rules("foster", 4)
    n = 300
    res = simulate(rules, "random", n_deals=n, seed=5, threads=1)
    by_dealt: dict[int, list[int]] = {}
    t = rules.tables()
    for i in range(n):
        p = play(deal(rules, seed=5, index=i), "random")
        for side in range(rules.n_sides):
            dealt = sum(int(t.honours[p.deal.trump, c]) for seat in rules.seats_of(side)
                        for c in p.deal.hand(seat))
            by_dealt.setdefault(dealt, []).append(p.total[side])
    h = res.acc.holding_frame().set_index("honours_dealt")
    assert sorted(h.index) == sorted(by_dealt)
    for dealt, totals in by_dealt.items():
        assert h.loc[dealt, "sides"] == len(totals)
        assert h.loc[dealt, "total_mean"] == pytest.approx(np.mean(totals))


def test_wilson_interval_known_values():
    # 0 of 10: upper bound z^2/(n+z^2)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(3.8415 / 13.8415, rel=1e-4)
    lo, hi = wilson(50, 100)
    assert (lo + hi) / 2 == pytest.approx(0.5) and hi - lo == pytest.approx(0.1923, abs=1e-3)


def test_intervals_before_the_first_look_use_students_t():
    """A run stopped (time, Ctrl-C) or planned short of the first look estimates its spread
    from a few deals: its critical value is Student's t at the share of alpha it would
    spend, so the interval keeps 95% (z 1.96 with 12 normal samples covers ~92%); from the
    first look on the normal z (t would be at most ~1.1% wider there: 3.22 against 3.19 at
    the first look's share of alpha)."""
    from catchten_sim.aggregate import LookPlan, t_two_sided, z_two_sided
    short = LookPlan(12)                     # one look: all of alpha
    assert short.critical(12) == pytest.approx(t_two_sided(0.05, 11))
    assert "t 2.20, 12 samples" in short.describe(12)
    plan = LookPlan(20_000)                  # stopped at 40 deals, before the first look
    assert plan.critical(40) == pytest.approx(t_two_sided(plan.alpha_at(0), 39))
    assert plan.critical(40) > plan.z_at(40)
    assert plan.critical(256) == plan.z_at(256) == pytest.approx(
        z_two_sided(plan.alpha_at(0)))
    assert plan.critical(1) == plan.z_at(1)  # one deal: no spread to estimate
    assert 0 < t_two_sided(plan.alpha_at(0), 255) / plan.z_at(256) - 1 < 0.012
