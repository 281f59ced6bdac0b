"""Student's t critical values without scipy (catchten_sim.student): the same numbers as
scipy.stats.t, and no scipy import on the way to them."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from scipy.stats import t as scipy_t

from catchten_sim.aggregate import LookPlan, t_two_sided
from catchten_sim.student import SERIES_MAX, two_sided_tail, t_critical

ROOT = Path(__file__).resolve().parents[1]
#: the shares of alpha a LookPlan spends (one look; the last of 8; each early one of 8
#: and of 18 looks), and a few others
ALPHAS = (0.05, 0.04, 0.05 * 0.2 / 7, 0.05 * 0.2 / 17, 0.01, 0.001, 0.3, 0.9)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 11, 12, 39, 40, 254, 255, 299, 999,
                                SERIES_MAX, SERIES_MAX + 1, 5000, 10 ** 6])
def test_the_critical_values_are_scipys(df):
    for alpha in ALPHAS:
        want = float(scipy_t.ppf(1 - alpha / 2, df))
        got = t_critical(alpha, df)
        assert got == pytest.approx(want, rel=1e-10, abs=0), (df, alpha)
        if df <= SERIES_MAX:
            assert two_sided_tail(got, df) == pytest.approx(alpha, rel=1e-9)


def test_a_runs_critical_values_are_scipys():
    """Every critical value a LookPlan gives below its first look (Student's t) is
    scipy's to 1e-10, for plans of 1 to 18 looks."""
    for samples in (12, 256, 20_000, 50_000_000):
        for early in (True, False):
            plan = LookPlan(samples, early=early)
            for n in (2, 3, 12, 100, 255):
                alpha = plan.alpha_at(plan.index(n))
                assert plan.t_at(n) == pytest.approx(
                    float(scipy_t.ppf(1 - alpha / 2, n - 1)), rel=1e-10)


def test_t_is_computed_without_importing_scipy():
    """The critical value of a run stopped early is computed after its time limit: it
    imports nothing heavy (scipy.stats took 1 to 2.7 s of a busy machine)."""
    code = ("import sys\nfrom catchten_sim.aggregate import t_two_sided\n"
            "print(round(t_two_sided(0.05, 11), 4), 'scipy.stats' in sys.modules,\n"
            "      'scipy.special' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True,
                         timeout=120).stdout.split()
    assert out == ["2.201", "False", "False"], out
    assert t_two_sided(0.05, 11.5) == pytest.approx(float(scipy_t.ppf(0.975, 11.5)))
