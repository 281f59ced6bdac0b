"""Duplicate matches (catchten_sim.match, ``catchten match``): the JSON contract, bad input,
the stop reasons, identical deals in every seating, reproducibility whatever the threads,
and a control variate fitted on the pilot only."""
from __future__ import annotations

import json

import numpy as np
import pytest
from catchten_sim.errors import CatchTenError
from click.testing import CliRunner

from catchten_sim._kernels import engine as K
from catchten_sim.cli import cli
from catchten_sim.match import (MIN_ROUNDS, PILOT_FIRST, STOPS, _Player, fit_beta,
                                 match, seatings)
from catchten_sim.policies import Policy
from catchten_sim.rules import Rules

R4 = Rules.from_options("foster", 4, (), None)
TIMING = ("elapsed_s", "compile_s", "threads")


def _run(*args: str):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, list(args), catch_exceptions=False)


def _strip(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in TIMING}


def test_json_contract():
    res = _run("match", "heuristic", "random", "--deals", "2000", "--seed", "5", "--json",
               "--threads", "1")
    assert res.exit_code == 0, res.stderr
    d = json.loads(res.stdout)
    for key in ("a", "b", "rules", "deals", "seed", "mean_difference", "ci95", "se",
                "deals_saved_factor", "stop"):
        assert key in d, key
    assert (d["a"], d["b"], d["seed"]) == ("heuristic", "random", 5)
    assert d["rules"]["preset"] == "foster" and d["rules"]["players"] == 4
    assert set(d["se"]) == {"plain", "duplicate", "control_variate"}
    assert d["stop"] in STOPS
    lo, hi = d["ci95"]
    assert lo < d["mean_difference"] < hi
    assert d["deals"] % 4 == 0 and 0 < d["deals"] <= 2000
    # the heuristic beats random by points a deal, and duplicate play needs far fewer deals
    assert lo > 0 and d["stop"] == "separated"
    assert d["se"]["duplicate"] < d["se"]["plain"] / 2
    assert d["deals_saved_factor"] == pytest.approx(
        (d["se"]["plain"] / d["se"]["control_variate"]) ** 2)


@pytest.mark.parametrize("args,field", [
    (("heuristic", "rnd"), "B"),         # the arguments as the help names them
    (("nobody", "random"), "A"),
    (("heuristic", "random", "--deals", "0"), "deals"),
    (("heuristic", "random", "--precision", "-1"), "precision"),
    (("heuristic", "random", "--time", "0"), "time"),
    (("heuristic", "random", "--seed", "-3"), "seed"),
    (("heuristic", "random", "--players", "1"), "players"),
])
def test_bad_input_exit_2_one_line(args, field):
    res = _run("match", *args)
    assert res.exit_code == 2, (res.exit_code, res.stdout, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and field in lines[0], res.stderr
    res = _run("match", *args, "--json")
    assert res.exit_code == 2
    assert json.loads(res.stdout)["kind"] == "error"


def test_stop_deals_and_precision_and_time():
    r = match(R4, "random", "random", deals=1200, seed=2, threads=1, pilot=0,
              stop_early=False)
    # one look, at the end: Student's t with 299 degrees of freedom (300 rounds), ~1.968
    from scipy.stats import t as student
    assert r.stop == "deals" and r.deals == 1200
    assert r.z == pytest.approx(student.ppf(0.975, 299), 1e-9)
    # the same policy on every side: the seatings cancel, the difference is exactly 0
    r = match(R4, "heuristic", "heuristic", deals=4000, seed=2, threads=1, precision=0.5)
    assert r.mean_difference == 0.0 and r.stop == "precision" and r.deals == 1024
    r = match(R4, "random", "heuristic", deals=400_000, seed=2, threads=1,
              time_limit=1e-9, stop_early=False)
    assert r.stop == "time" and 0 < r.deals < 400_000


def test_interrupted_keeps_finished_chunks():
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    r = match(R4, "heuristic", "random", deals=100_000, seed=3, threads=1,
              stop_early=False, progress=progress)
    assert r.stop == "interrupted" and r.deals == calls[-1] and r.deals > 0
    # the result is that of the first chunks alone, as if fewer deals had been asked
    full = match(R4, "heuristic", "random", deals=r.deals, seed=3, threads=1,
                 stop_early=False)
    assert (r.mean_difference, r.se) == (full.mean_difference, full.se)


def test_seatings_every_rotation():
    assert seatings(R4) == [(0, 1), (1, 0)]
    r3 = Rules.from_options("foster", 3, (), None)
    st = seatings(r3)
    assert len(st) == 6 and len(set(st)) == 6
    for sd in range(3):     # every side holds A in half of the seatings
        assert sum(1 for s in st if s[sd] == 0) == 3


@pytest.mark.parametrize("players", [4, 3])
def test_every_seating_sees_the_same_cards(players):
    """Columns fixed by the cards alone (dealer, trumps, who holds the Ten, honours and
    trumps dealt to each position) agree in every seating and in the control variate's
    self-play: the random policy never changes the deal."""
    rules = Rules.from_options("foster", players, (), None)
    p = _Player(rules, Policy.HEURISTIC, Policy.RANDOM, 9, 1)
    cols = [K.C_DEALER, K.C_TRUMP, K.C_TEN_HOLDER, K.C_HOLDER_TRUMPS]
    for pos in range(players):
        base = K.N_FIXED + pos * K.N_PER_POS
        cols += [base + K.F_HONOURS_DEALT, base + K.F_SEAT_TRUMPS]
    rows = [p.rows(40, 300, pol) for pol in p.policies]
    for other in rows[1:]:
        assert np.array_equal(rows[0][:, cols], other[:, cols])
    # but the play differs (the seatings are really different)
    assert not np.array_equal(rows[0], rows[1])
    # and the deals are simulate's: deal i's hands are deal_one's
    hands = K.deal_one(rules.tables(), 9, 40)[0]
    assert rows[0][0, K.C_DEALER] == 40 % players
    assert int(np.bitwise_or.reduce(hands.ravel())) != 0


def test_reproducible_whatever_the_threads():
    a = match(R4, "heuristic", "random", deals=3000, seed=11, threads=1, stop_early=False,
              pilot=800)
    b = match(R4, "heuristic", "random", deals=3000, seed=11, threads=2, stop_early=False,
              pilot=800)
    assert _strip(a.to_dict()) == _strip(b.to_dict())


def test_control_variate_from_the_pilot_only():
    """The coefficients come from the pilot's deal numbers: the same whatever the match's
    length, and equal to a fit on the pilot's rounds alone."""
    a = match(R4, "heuristic", "random", deals=1024, seed=4, threads=1, pilot=1000)
    b = match(R4, "heuristic", "random", deals=6000, seed=4, threads=1, pilot=1000,
              stop_early=False)
    assert a.beta == b.beta and any(x != 0 for x in a.beta)
    p = _Player(R4, Policy.HEURISTIC, Policy.RANDOM, 4, 1)
    px, pc, _ = p.rounds(0, 250, deal_base=PILOT_FIRST)
    assert tuple(fit_beta(px, pc)) == pytest.approx(a.beta)
    assert PILOT_FIRST > 10 ** 12 and PILOT_FIRST % 840 == 0
    # no pilot: no control variate
    c = match(R4, "heuristic", "random", deals=1024, seed=4, threads=1, pilot=0)
    assert c.beta == (0.0, 0.0)
    assert np.isnan(c.se["control_variate"]) and not c.control_variate_used


def test_control_variate_has_mean_zero_over_a_round():
    """Over a round (each seat deals once) the sides are exchangeable: with two sides the
    two seatings' control variates are exact negatives, so their expectation is 0."""
    p = _Player(R4, Policy.HEURISTIC, Policy.RANDOM, 4, 1)
    _, c, _ = p.rounds(0, 50)
    assert np.array_equal(c[:, 0], -c[:, 1])


def test_report_dir(tmp_path):
    res = _run("match", "heuristic", "random", "--deals", "1024", "--report",
               str(tmp_path / "rep"), "--threads", "1")
    assert res.exit_code == 0, res.stderr
    for name in ("match.json", "match.txt", "match.png"):
        assert (tmp_path / "rep" / name).stat().st_size > 0
    assert json.loads((tmp_path / "rep" / "match.json").read_text())["a"] == "heuristic"


def test_game_p_win_through_the_equity_table():
    from catchten_sim.match import game_p_win
    r2 = Rules.from_options("foster", 2, (), None)
    assert game_p_win(r2, "heuristic", "heuristic", n_hands=2000) == pytest.approx(0.5, abs=1e-12)
    assert game_p_win(r2, "heuristic", "random", n_hands=2000) > 0.55


def test_pimc_side_plays_the_same_deals():
    """A seating with a pimc seat (played deal by deal by pimc.DealDriver) sees the cards
    of the kernel's seatings."""
    r2 = Rules.from_options("foster", 2, (), None)
    p = _Player(r2, Policy.parse("pimc:2"), Policy.RANDOM, 3, 1)
    assert p.slow and isinstance(p.policies[0], int)
    cols = [K.C_DEALER, K.C_TRUMP, K.C_TEN_HOLDER, K.C_HOLDER_TRUMPS]
    for pos in range(2):
        base = K.N_FIXED + pos * K.N_PER_POS
        cols += [base + K.F_HONOURS_DEALT, base + K.F_SEAT_TRUMPS]
    a = p.rows(6, 2, p.policies[0])
    b = p.rows(6, 2, p.policies[2])
    assert np.array_equal(a[:, cols], b[:, cols])
    res = match(r2, "pimc:2", "random", deals=4, seed=3, threads=1, stop_early=False)
    assert res.deals == 4 and res.pilot_deals == 0 and res.to_dict()["a"] == "pimc:2"


def test_match_needs_two_rounds_for_an_interval():
    """One round of n deals gives no standard error: fewer than 2n deals is refused in one
    line rather than printing a nan interval."""
    with pytest.raises(CatchTenError) as e:
        match(Rules.from_options("foster", 4, (), None), "heuristic", "random", deals=7)
    assert e.value.field == "deals" and "allowed: 8" in e.value.detail


def test_no_pilot_names_no_control_variate():
    """Without a pilot (``--pilot 0``, the default with a pimc side) no control variate is
    used: the JSON says null, the text says so, the factor is the duplicate's."""
    r = match(R4, "heuristic", "random", deals=2048, seed=4, threads=1, pilot=0,
              stop_early=False)
    d = r.to_dict()
    assert not r.control_variate_used
    assert d["control_variate"] is None and d["se"]["control_variate"] is None
    assert d["mean_difference"] == d["mean_difference_duplicate"]
    assert d["deals_saved_factor"] == pytest.approx(
        (d["se"]["plain"] / d["se"]["duplicate"]) ** 2)
    assert "no control variate" in r.to_text() and "control variate 0" not in r.to_text()
    with_cv = match(R4, "heuristic", "random", deals=2048, seed=4, threads=1,
                    stop_early=False).to_dict()
    assert with_cv["control_variate"]["pilot_deals"] > 0
    assert with_cv["se"]["control_variate"] is not None


def test_few_rounds_use_students_t_at_the_looks_share():
    """A normal-theory interval over a handful of rounds: z (1.96, or a look's 3.2)
    would not keep 95% (the se is estimated from the rounds themselves); Student's t
    with rounds - 1 degrees of freedom at the share of alpha of the next look does."""
    from scipy.stats import t as student

    from catchten_sim.aggregate import LookPlan
    rng = np.random.default_rng(7)
    x = rng.normal(size=(40_000, 4))
    m, se = x.mean(axis=1), x.std(axis=1, ddof=1) / 2.0
    plan = LookPlan(4)
    miss_t = float(np.mean(np.abs(m) > plan.t_at(4) * se))
    miss_z = float(np.mean(np.abs(m) > plan.z_at(4) * se))
    assert 0.04 < miss_t < 0.06 and miss_z > 0.12
    # a stop between looks: the share of the next look (never taken afterwards)
    plan = LookPlan(1000)                 # looks at 256, 512 and 1000 rounds
    assert plan.t_at(3) == pytest.approx(student.ppf(1 - 0.05 * 0.2 / 2 / 2, 2))
    assert plan.t_at(300) == pytest.approx(student.ppf(1 - 0.05 * 0.2 / 2 / 2, 299))
    assert plan.t_at(1000) == pytest.approx(student.ppf(1 - 0.05 * 0.8 / 2, 999))


def test_interrupted_pimc_match_states_no_interval_and_t_from_min_rounds():
    """A pimc match (one round a chunk) interrupted after 3 rounds, between looks: below
    MIN_ROUNDS no interval, se or critical value (was: t with 2 degrees of freedom, an
    interval whose 95% rests on 3 near-normal rounds); from MIN_ROUNDS on a stop between
    looks uses t with rounds - 1 degrees of freedom at the next look's share of alpha."""
    import math
    from scipy.stats import t as student
    from catchten_sim.aggregate import LookPlan
    from catchten_sim.match import _critical
    r2 = Rules.from_options("foster", 2, (), None)
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    r = match(r2, "pimc:1", "random", deals=2000, seed=3, threads=1, progress=progress)
    assert r.stop == "interrupted" and r.deals == 6 and not r.has_interval
    assert math.isnan(r.z) and all(math.isnan(x) for x in (*r.ci95, *r.se.values()))
    assert r.interval_reason == f"3 rounds, need {MIN_ROUNDS}"
    assert r.to_dict()["control_variate"] is None
    plan = LookPlan(1000, early=True)
    assert math.isnan(_critical(plan, MIN_ROUNDS - 1))
    assert _critical(plan, 40) == pytest.approx(student.ppf(1 - 0.05 * 0.2 / 2 / 2, 39))


def test_one_round_gives_no_interval_never_nan(tmp_path):
    """A match stopped after one round (a pimc match's first chunk: time, Ctrl-C) has no
    standard error: the JSON says null (never NaN, which is not JSON), the text says "not
    available", the report is written, the deals played are kept."""
    r2 = Rules.from_options("foster", 2, (), None)

    def interrupt(done, total):
        raise KeyboardInterrupt

    r = match(r2, "pimc:1", "random", deals=2000, seed=3, threads=1, progress=interrupt)
    assert r.stop == "interrupted" and r.deals == 2 and not r.has_interval
    d = r.to_dict()
    json.dumps(d, allow_nan=False)
    assert d["ci95"] == [None, None] and d["z"] is None
    assert set(d["se"].values()) == {None} and d["deals_saved_factor"] is None
    assert d["win_share"]["ci95"] == [None, None] and d["mean_difference"] is not None
    text = r.to_text()
    assert "nan" not in text and f"n/a: 1 round, need {MIN_ROUNDS}" in text
    out = tmp_path / "rep"
    res = _run("match", "pimc:1", "random", "--players", "2", "--time", "1e-9",
               "--threads", "1", "--json", "--report", str(out))
    assert res.exit_code == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["stop"] == "time" and d["deals"] == 2 and d["ci95"] == [None, None]
    assert json.loads((out / "match.json").read_text())["z"] is None
    assert "nan" not in (out / "match.txt").read_text() and (out / "match.png").exists()
    res = _run("match", "pimc:1", "random", "--players", "2", "--time", "1e-9",
               "--threads", "1")
    assert res.exit_code == 0 and "nan" not in res.stdout and "n/a: 1 round" in res.stdout


def test_no_spread_says_not_available():
    """The same policy on every side: the seatings cancel, the se is 0 and the deals-saved
    factor 0/0 is not defined: null in JSON, "not available" in the text (never nan)."""
    r = match(R4, "heuristic", "heuristic", deals=160, seed=2, threads=1, pilot=0)
    assert r.rounds >= MIN_ROUNDS
    assert r.to_dict()["deals_saved_factor"] is None
    assert "nan" not in r.to_text() and "not available" in r.to_text()


def test_few_rounds_state_nothing_of_spread_and_ipimc_says_its_worlds():
    """Below MIN_ROUNDS rounds no standard error, interval or variance ratio is claimed
    (JSON null, the text "n/a"); an ipimc side says how many worlds it drew per decision
    and their effective size."""
    r2 = Rules.from_options("foster", 2, (), None)
    r = match(r2, "ipimc:2", "random", deals=4, seed=1, threads=1, stop_early=False)
    d = r.to_dict()
    assert r.rounds == 2 and not r.has_interval and set(d["se"].values()) == {None}
    assert d["deals_saved_factor"] is None
    text = r.to_text()
    assert "fewer deals" not in text and "standard error: n/a: 2 rounds" in text
    w = d["ipimc_worlds"]["ipimc:2"]
    assert w["decisions"] > 0 and w["drawn"] >= w["effective_size"] >= w["effective_size_min"] >= 1
    assert "ipimc:2 worlds per decision:" in text and "random" not in d["ipimc_worlds"]


def test_precision_means_the_half_width():
    """With --precision the match stops at the first look whose half-width reaches it, not
    at the first separated one (that is the stop without --precision); when the deals run
    out first the stop says ``deals``; without the looks --precision is refused."""
    sep = match(R4, "heuristic", "random", deals=4000, seed=2, threads=1)
    assert sep.stop == "separated" and sep.deals == 1024
    assert (sep.ci95[1] - sep.ci95[0]) / 2 > 0.6          # separated, yet wider than 0.6
    r = match(R4, "heuristic", "random", deals=4000, seed=2, threads=1, precision=0.6)
    assert r.stop == "precision" and r.deals == 2048 and (r.ci95[1] - r.ci95[0]) / 2 <= 0.6
    # the same looks and critical values as without --precision
    assert r.history[0] == sep.history[0]
    r = match(R4, "heuristic", "random", deals=4000, seed=2, threads=1, precision=0.01)
    assert r.stop == "deals" and r.deals == 4000 and (r.ci95[1] - r.ci95[0]) / 2 > 0.01
    res = _run("match", "heuristic", "random", "--precision", "0.5", "--no-early-stop")
    assert res.exit_code == 2 and res.stderr.startswith("error: precision:")
    assert len(res.stderr.splitlines()) == 1


def test_report_into_a_used_directory_names_report_and_force_works(tmp_path):
    out = tmp_path / "rep"
    args = ("match", "heuristic", "random", "--deals", "40", "--threads", "1",
            "--pilot", "0", "--report", str(out))
    assert _run(*args).exit_code == 0
    res = _run(*args)
    assert res.exit_code == 2 and res.stderr.startswith("error: report: not empty")
    assert "--force" in res.stderr
    res = _run(*args, "--force")
    assert res.exit_code == 0, res.stderr
    res = _run(*args[:-1], str(tmp_path / "no" / "dir"))
    assert res.exit_code == 2 and res.stderr.startswith("error: report: cannot write")


def test_interrupted_match_png_is_stamped(tmp_path, monkeypatch):
    """An interrupted match's figure carries the red INTERRUPTED stamp (as a simulate
    report's figures do); a finished one does not."""
    import matplotlib.figure
    from catchten_sim.writers import write_match_report
    texts = []
    real = matplotlib.figure.Figure.savefig

    def savefig(fig, *a, **k):
        texts.append([t.get_text() for t in fig.texts])
        return real(fig, *a, **k)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    calls = []

    def progress(done, total):
        calls.append(done)
        if len(calls) == 1:
            raise KeyboardInterrupt

    r = match(R4, "heuristic", "random", deals=100_000, seed=3, threads=1, pilot=0,
              stop_early=False, progress=progress)
    assert r.stop == "interrupted"
    write_match_report(r, tmp_path)
    full = match(R4, "heuristic", "random", deals=40, seed=3, threads=1, pilot=0)
    write_match_report(full, tmp_path)
    assert any(t.startswith("INTERRUPTED (Ctrl-C)") for t in texts[0])
    assert not any("INTERRUPTED" in t for t in texts[1])


def test_small_pilot_warns_once():
    args = ("match", "heuristic", "random", "--deals", "40", "--threads", "1")
    res = _run(*args, "--pilot", "5")
    assert res.exit_code == 0
    lines = res.stderr.splitlines()
    warn = [i for i, ln in enumerate(lines) if ln.startswith("warning: pilot")]
    assert len(warn) == 1
    # one warning, wrapped to 80 columns: its continuation lines are indented
    i = warn[0] + 1
    while i < len(lines) and lines[i].startswith("  "):
        i += 1
    assert "100" in " ".join(lines[warn[0]:i]) and max(map(len, lines)) <= 80
    assert "warning" not in _run(*args, "--pilot", "100").stderr
    assert "warning" not in _run(*args, "--pilot", "0").stderr


def test_no_interval_verdict_or_se_below_min_rounds():
    """``catchten match heuristic random --deals 8`` (2 rounds) printed the win share
    "62.5% [62.5, 62.5]" (a zero-width interval: both rounds won 62.5%) and a t interval
    of +-15.5: below MIN_ROUNDS every interval (the difference's, the win share's),
    standard error and verdict is "n/a: 2 rounds, need 30" (JSON null, and why); the
    means are kept. From MIN_ROUNDS on they are stated."""
    r = match(R4, "heuristic", "random", deals=8, seed=1, threads=1, pilot=0)
    assert r.rounds == 2 < MIN_ROUNDS and not r.has_interval
    assert r.verdict is None
    text = " ".join(r.to_text().split())
    na = f"n/a: 2 rounds, need {MIN_ROUNDS}"
    assert f"95% interval {na}" in text and "% [" not in text
    assert f"standard error: {na}" in text and "separated" not in text
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert d["ci95"] == [None, None] and d["win_share"]["ci95"] == [None, None]
    assert set(d["se"].values()) == {None} and d["z"] is None and d["verdict"] is None
    why = f"(2 rounds; at least {MIN_ROUNDS})"
    assert d["verdict_reason"] == f"too few rounds for a verdict {why}"
    assert d["interval_reason"] == f"too few rounds for an interval {why}"
    assert d["mean_difference"] == pytest.approx(r.mean_difference)
    assert d["win_share"]["mean"] == pytest.approx(r.win_share[0])
    enough = match(R4, "heuristic", "random", deals=MIN_ROUNDS * R4.players, seed=1,
                   threads=1, pilot=0)
    assert enough.has_interval and enough.verdict is not None
    d = enough.to_dict()
    assert d["interval_reason"] is None and None not in d["win_share"]["ci95"]


@pytest.mark.parametrize("pilot", [0, 200])
def test_the_se_line_is_the_one_the_interval_is_made_of(pilot):
    """The text printed "standard error: plain 1.2500" beside a +-15.5 interval: the line
    now names the standard error of the estimate and the critical value, and the interval
    printed is the mean -/+ the two's product (read back from the text, rounded)."""
    import re
    r = match(R4, "heuristic", "random", deals=160, seed=2, threads=1, pilot=pilot)
    text = " ".join(r.to_text().split())
    mean = float(re.search(r"minus random: ([-+\d.]+) points", text).group(1))
    lo, hi = map(float, re.search(r"95% interval \[([-+\d.]+), ([-+\d.]+)\]", text).groups())
    se, z, se2 = re.search(r"standard error of the difference: ([\d.]+) \([^;]+; the "
                           r"interval is the mean ± ([\d.]+) x ([\d.]+)\)", text).groups()
    assert se == se2
    # to the digits printed: z to 0.005, se to 5e-5, the ends to 5e-4
    assert (hi - lo) / 2 == pytest.approx(float(se) * float(z), abs=0.005 * float(se) + 1e-3)
    assert (lo + hi) / 2 == pytest.approx(mean, abs=2e-3)
    plain = re.search(r"plain play \(one seating a deal\) ([\d.]+)", text)
    assert float(plain.group(1)) == pytest.approx(r.se["plain"], abs=1e-4)
