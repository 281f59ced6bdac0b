"""The sequential stopping rule of advise (aggregate.LookPlan, issue 13 §1): its looks and
critical values, and simulated runs under many looks (a null and a real effect) whose false
separation and coverage stay within their promise, where the naive rule does not."""
import math

import numpy as np
import pytest

from catchten_sim.aggregate import (Z95, LookPlan, mean_se, normal_interval, paired_diff,
                                    verdict, wilson, z_two_sided)


def test_look_schedule_and_alpha_spending():
    p = LookPlan(20_000)
    assert p.looks == (256, 512, 1024, 2048, 4096, 8192, 16384, 20_000)
    assert math.isclose(sum(p.alpha_at(k) for k in range(len(p.looks))), 0.05)
    assert math.isclose(p.z_at(20_000), z_two_sided(0.04))          # 2.054
    assert math.isclose(p.z_at(256), z_two_sided(0.01 / 7))         # 3.19
    # a stop between two looks (out of time) uses the next look's share
    assert p.index(3000) == 4 and p.z_at(3000) == p.z_at(4096)
    assert LookPlan(200).looks == (200,) and math.isclose(LookPlan(200).z_at(200), Z95)
    fixed = LookPlan(20_000, early=False)
    assert fixed.looks == (20_000,) and math.isclose(fixed.z_at(1234), Z95)
    assert "fixed sample size" in fixed.describe(20_000)
    assert "look 8 of 8" in p.describe(20_000)


def test_verdicts():
    assert verdict(0.1, 0.5, 0.25) == "separated"
    assert verdict(-0.5, -0.1, 0.25) == "separated"
    assert verdict(-0.1, 0.2, 0.25) == "no practical difference"
    assert verdict(0.01, 0.2, 0.25) == "no practical difference"     # real but tiny
    assert verdict(-0.1, 0.3, 0.25) == "not separated"
    assert verdict(-0.1, 0.1, 0.0) == "not separated"
    assert verdict(math.nan, math.nan, 0.25) == "not separated"


def test_interval_helpers():
    assert wilson(0, 50) [0] == 0.0 and wilson(50, 50)[1] == 1.0
    lo, hi = wilson(10, 100)
    assert 0.05 < lo < 0.1 < hi < 0.18
    rng = np.random.default_rng(1)
    a = rng.normal(size=500)
    b = a + rng.normal(0.1, 0.5, size=500)
    m, se, _ = paired_diff(a.sum(), (a * a).sum(), b.sum(), (b * b).sum(), (a * b).sum(), 500)
    d = a - b
    assert math.isclose(m, d.mean()) and math.isclose(se, d.std(ddof=1) / math.sqrt(500))
    m2, se2 = mean_se(d.sum(), (d * d).sum(), 500)
    assert math.isclose(m2, m) and math.isclose(se2, se)
    assert normal_interval(1.0, 0.5, 2.0) == (0.0, 2.0)


def _simulate(plan, effect, n_runs, z_of, seed):
    """Runs of paired differences N(effect, 1) looked at on ``plan.looks``; stop at the
    first look whose interval (critical value ``z_of(n)``) excludes 0. Returns the share of
    runs declaring the wrong sign (or any sign when effect = 0) and the coverage of the
    interval reported at the stop."""
    rng = np.random.default_rng(seed)
    looks = np.array(plan.looks)
    inc = np.diff(np.concatenate([[0], looks]))
    sums = np.cumsum(rng.normal(effect * inc, np.sqrt(inc), size=(n_runs, len(looks))), axis=1)
    means = sums / looks
    se = 1.0 / np.sqrt(looks)                      # the known-variance version of the rule
    z = np.array([z_of(int(n)) for n in looks])
    lo, hi = means - z * se, means + z * se
    sep = (lo > 0) | (hi < 0)
    stop = np.where(sep.any(axis=1), sep.argmax(axis=1), len(looks) - 1)
    r = np.arange(n_runs)
    s_lo, s_hi = lo[r, stop], hi[r, stop]
    wrong = (s_lo > 0) if effect <= 0 else (s_hi < 0)
    if effect == 0:
        wrong = (s_lo > 0) | (s_hi < 0)
    covered = (s_lo <= effect) & (effect <= s_hi)
    return wrong.mean(), covered.mean()


def test_null_with_many_looks_keeps_false_separation_within_alpha():
    plan = LookPlan(1_000_000)                     # 13 looks
    assert len(plan.looks) == 13
    false_sep, cover = _simulate(plan, 0.0, 20_000, plan.z_at, seed=3)
    assert false_sep <= 0.05 and cover >= 0.95
    # the rule is not vacuous: looking as if each look were the only one over-claims
    naive, naive_cover = _simulate(plan, 0.0, 20_000, lambda n: Z95, seed=3)
    assert naive > 0.15 and naive_cover < 0.85


@pytest.mark.parametrize("effect", [0.003, 0.01, 0.03])
def test_coverage_at_the_stop_with_a_real_effect(effect):
    plan = LookPlan(100_000)
    wrong, cover = _simulate(plan, effect, 20_000, plan.z_at, seed=5)
    assert cover >= 0.95 - 0.005 and wrong <= 0.025
