"""The double-dummy solver (issue 9): worked cases, brute force, consistency, CLI."""
from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

from bruteforce import brute_values, random_ending  # noqa: E402

from catchten_sim._kernels.solve import TT_WORDS  # noqa: E402
from catchten_sim.cards import format_card, parse_card  # noqa: E402
from catchten_sim.cli import cli  # noqa: E402
from catchten_sim.errors import ParseError  # noqa: E402
from catchten_sim.records import score_record  # noqa: E402
from catchten_sim.rules import Rules  # noqa: E402
from catchten_sim.solve import (Solution, Solver, solve, solve_deals,  # noqa: E402
                                 solve_values, solver_tables)

DD = TESTS / "cases" / "dd"
CASES = sorted(p.name[:-len(".expected.json")] for p in DD.glob("*.expected.json"))


def _load(name: str) -> tuple[dict, dict]:
    return (json.loads((DD / f"{name}.json").read_text()),
            json.loads((DD / f"{name}.expected.json").read_text()))


def _diff(score: dict, rules: Rules, side: int) -> int:
    """Side's total minus the other sides' totals (from a ``score_record`` output)."""
    tot = {s["side"]: s["total"] for s in score["sides"]}
    return tot[side] - sum(v for s, v in tot.items() if s != side)


# ------------------------------------------------------------------ worked cases
@pytest.mark.parametrize("name", CASES)
def test_shared_dd_case(name):
    record, want = _load(name)
    sol = solve(record)
    assert sol.to_move == want["to_move"]
    assert sol.value == want["value"]
    assert sol.values == {c["card"]: c["value"] for c in want["cards"]}
    assert set(sol.best) == set(want["best"])


def test_cases_present():
    assert len(CASES) >= 20


# ------------------------------------------------------------------ brute force
@pytest.mark.parametrize("part", range(3))
def test_random_endings_match_brute_force(part):
    """Random endings of every preset, player count and play/scoring switch (a few per
    configuration, each also under a tiny node budget; scripts/check_solve_exact.py runs
    thousands: 100 a configuration by default); in three parts that together are the one
    run of seed 2024 (so that xdist's workers share it)."""
    from exactness import SOLVE_CONFIGS, check_solver
    n, bad = check_solver(per_config=8, seed=2024, part=(part, 3))
    assert n == 8 * len(SOLVE_CONFIGS)
    assert not bad, bad[:3]


def _brute_force_can_take(name: str) -> bool:
    record = _load(name)[0]
    return not (len(record["play"]) < 8 * 2 and record["players"] == 2)


#: the cases the brute force can take (a whole two-player deal is too long for it)
BRUTE_CASES = [n for n in CASES if _brute_force_can_take(n)]


@pytest.mark.parametrize("name", BRUTE_CASES)
def test_brute_force_agrees_with_the_shared_cases(name):
    """The brute force itself is right: it reproduces the independent cases (one test a
    case: one of them takes most of the time, the others share the other worker)."""
    record, want = _load(name)
    to_move, vals = brute_values(record)
    assert to_move == want["to_move"]
    assert vals == {c["card"]: c["value"] for c in want["cards"]}, name


# ------------------------------------------------------------------ consistency
@pytest.mark.parametrize("preset,players,variants", [
    ("foster", 4, {}), ("foster", 2, {}), ("foster", 3, {"set_scoring": "per_deal"}),
    ("foster", 6, {}), ("foster", 5, {"keep_six_of_spades": True}), ("jaques", 6, {}),
])
def test_line_scores_the_value_and_children_agree(preset, players, variants):
    """Whole deals: the printed line, played out and scored by ``catchten score``, makes
    exactly the value; each root card's value equals the value of the position after it."""
    rng = random.Random(hash((preset, players)) & 0xFFFF)
    rules = Rules(preset, players, variants)
    for _ in range(2):
        record = random_ending(rng, preset, players, variants, rules.cards_per_player)
        record["play"] = record["play"][:rng.randrange(players)]
        sol = solve(record, line=True)
        full = score_record(dict(record, play=record["play"] + list(sol.line)))
        assert full["finished"]
        assert _diff(full, rules, sol.side) == sol.value
        for card, v in sol.values.items():
            after = dict(record, play=record["play"] + [card])
            _seat, best, _vals = solve_values(after, root_side=sol.side)
            assert best == v, card


def test_solution_api_and_frame():
    record, want = _load("foster4_left4_lead_01")
    sol = solve(record)
    assert isinstance(sol, Solution)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sol.value = 3  # frozen
    df = sol.to_frame()
    assert list(df.columns) == ["card", "value", "best"]
    assert df["best"].sum() == len(sol.best)
    assert sol.to_dict()["cards"][0].keys() == {"card", "value"}
    assert not sol.paranoid and sol.n_sides == 2


def test_table_size_is_fixed_and_small_tables_still_exact():
    record, want = _load("foster4_left5_lead_01")
    s = Solver(tt_bits=4)   # 16 entries: constant replacement, values unchanged
    size = s.table.e.shape[0] // TT_WORDS
    assert solve(record, solver=s).values == {c["card"]: c["value"] for c in want["cards"]}
    assert s.table.e.shape[0] // TT_WORDS == size == 16


def test_the_table_is_sized_by_the_deal():
    """``Solver()``: 2**17 entries for deals of up to 40 cards, one table of 2**21 made for
    larger deals and kept; a size given is used for every deal."""
    foster = solver_tables(Rules("foster", 4), 0, 5, 0)
    f52 = solver_tables(Rules("french52", 4), 0, 5, 0)
    s = Solver()
    assert s.table_for(foster).e.shape[0] // TT_WORDS == 2 ** 17
    big = s.table_for(f52)
    assert big.e.shape[0] // TT_WORDS == 2 ** 21
    assert s.table_for(f52) is big and s.table_for(foster) is s.table
    fixed = Solver(tt_bits=10)
    assert fixed.table_for(f52) is fixed.table_for(foster) is fixed.table
    assert fixed.table.e.shape[0] // TT_WORDS == 2 ** 10


def test_node_limit_gives_bounds_and_the_solver_stays_usable():
    """No refusal (issue 26): at the budget the solve returns proven ranges; the same
    scratch and table with a larger budget are exact again."""
    record, want = _load("foster4_left5_lead_01")
    exact = {c["card"]: c["value"] for c in want["cards"]}
    s = Solver(node_limit=20)
    sol = solve(record, solver=s)
    assert not sol.exact and sol.stopped_by == "node budget"
    assert all(lo <= exact[c] <= hi for c, (lo, hi) in sol.ranges.items())
    s.node_limit = 10_000_000
    assert solve(record, solver=s).values == exact


def test_cli_a_solve_beyond_the_budget_prints_ranges_not_an_error(monkeypatch):
    """Exit 0 with the ranges and a line saying the values are not exact; with a bad record
    beside it, 2."""
    import importlib
    solve_mod = importlib.import_module("catchten_sim.solve")
    monkeypatch.setattr(solve_mod, "_DEFAULT", Solver(node_limit=20))
    res = CliRunner().invoke(cli, ["solve", str(DD / "foster4_left5_lead_01.json")])
    assert res.exit_code == 0, res.output
    assert "value between" in res.output and "not exact" in res.output
    res = CliRunner().invoke(cli, ["solve", str(DD / "foster4_left5_lead_01.json"), "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["exact"] is False
    bad = DD / "missing.json"
    res = CliRunner().invoke(cli, ["solve", str(DD / "foster4_left5_lead_01.json"), str(bad)])
    assert res.exit_code == 2


def test_batch_equals_single_solves():
    """One kernel call on several deals (same rules, dealer, turn-up) gives each deal's
    values, as single solves do."""
    rng = random.Random(5)
    rules = Rules("foster", 4)
    base = random_ending(rng, "foster", 4, {}, 9)
    base["play"] = []
    dealer = base["dealer"]
    others = [s for s in range(4) if s != dealer]
    recs = []
    for k in range(4):
        hands = [list(h) for h in base["hands"]]
        a, b = others[k % 3], others[(k + 1) % 3]
        hands[a], hands[b] = hands[b], hands[a]
        recs.append(dict(base, hands=hands))
    deals = np.zeros((len(recs), 1, 4), np.int64)
    for i, r in enumerate(recs):
        for seat, h in enumerate(r["hands"]):
            deals[i, 0, seat] = sum(1 << parse_card(c) for c in h)
    out = solve_deals(rules, dealer, parse_card(base["turnup"]), deals)
    for i, r in enumerate(recs):
        single = solve(r)
        assert {format_card(c): int(out[i, c]) for c in range(52) if out[i, c] < 30000} == \
            single.values
        assert out[i, 52] == single.value


# ------------------------------------------------------------------ CLI
def test_cli_json_matches_case():
    name = "foster6_left3_lead_01"
    record, want = _load(name)
    res = CliRunner().invoke(cli, ["solve", str(DD / f"{name}.json"), "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert got["to_move"] == want["to_move"] and got["value"] == want["value"]
    assert {c["card"]: c["value"] for c in got["cards"]} == \
        {c["card"]: c["value"] for c in want["cards"]}
    assert got["paranoid"] is True


def test_cli_several_records_one_line_each_and_line(tmp_path):
    a = DD / "foster4_left2_lead_01.json"
    b = DD / "foster2sets_left8_mid1_01.json"
    res = CliRunner().invoke(cli, ["solve", str(a), str(b), "--json", "--line"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in res.stdout.strip().splitlines()]
    assert len(rows) == 2
    assert rows[1]["line"][0] in rows[1]["best"]
    res = CliRunner().invoke(cli, ["solve", str(b), "--line"])
    assert res.exit_code == 0
    assert "best: AD" in res.output and "trick 18" in res.output


def test_cli_refuses_bad_record_like_score(tmp_path):
    record, _ = _load("foster4_left4_lead_01")
    bad = dict(record, hands=record["hands"][:3])
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(bad))
    res = CliRunner().invoke(cli, ["solve", str(p), "--json"])
    assert res.exit_code == 2
    err = json.loads(res.stdout)
    assert (err["field"], err["why"]) == ("hands", "wrong number of hands")
    res2 = CliRunner().invoke(cli, ["score", str(p), "--json"])
    assert json.loads(res2.stdout)["why"] == err["why"]


def test_cli_a_bad_record_does_not_stop_the_others(tmp_path):
    """Every record is solved: a bad one gets its one line (its error object with --json)
    in its place, the rest go on, and the exit status is 2 at the end."""
    a = DD / "foster4_left2_lead_01.json"
    c = DD / "foster2sets_left8_mid1_01.json"
    record, _ = _load("foster4_left4_lead_01")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(record, hands=record["hands"][:3])))
    res = CliRunner().invoke(cli, ["solve", "--json", str(a), str(bad), str(c)])
    assert res.exit_code == 2, res.output
    rows = [json.loads(x) for x in res.stdout.strip().splitlines()]
    assert len(rows) == 3
    assert rows[0]["value"] == solve(a).value and rows[2]["value"] == solve(c).value
    assert rows[1] == {"kind": "error", "field": "hands", "why": "wrong number of hands",
                       "detail": rows[1]["detail"]}
    res = CliRunner().invoke(cli, ["solve", str(a), str(bad), str(c)])
    assert res.exit_code == 2
    assert res.stdout.count("== ") == 2 and f"== {c}" in res.stdout
    err = res.stderr.splitlines()
    assert err == [f"error: {bad}: hands: wrong number of hands ({rows[1]['detail']})"]
    res = CliRunner().invoke(cli, ["solve", str(a), str(c)])
    assert res.exit_code == 0


def test_advise_and_score_name_the_kind_of_file_they_were_given():
    """advise given a hand record said "hands: unknown field (did you mean 'hand'?)"; score
    given a position named it in 160 columns."""
    for args, want in ((["advise", "examples/hand.json"],
                        "error: position: not a position (this is a hand record; try "
                        "catchten solve)"),
                       (["advise", "examples/game.json"],
                        "error: position: not a position (this is a game record; try "
                        "catchten score)"),
                       (["score", "examples/position-lead.json"],
                        "error: record: not a record (this is a position; try catchten "
                        "advise)")):
        res = CliRunner().invoke(cli, [args[0], str(ROOT / args[1])])
        assert res.exit_code == 2 and res.stderr.strip() == want, res.stderr


def test_cli_says_solve_needs_a_hand_record_for_a_game_record_or_a_position():
    """A game record or a position is named as such in one line (exit 2), not refused for
    the first hand-record field it lacks."""
    for path, kind in ((ROOT / "examples" / "game.json", "game record"),
                       (ROOT / "examples" / "position-lead.json", "position")):
        res = CliRunner().invoke(cli, ["solve", str(path)])
        assert res.exit_code == 2
        err = res.stderr.splitlines()
        assert len(err) == 1 and err[0].startswith("error: record: not a hand record (this "
                                                   f"is a {kind}; ")
        assert len(err[0]) <= 80, err[0]      # it was 154 columns
        res = CliRunner().invoke(cli, ["solve", "--json", str(path)])
        obj = json.loads(res.stdout)
        assert res.exit_code == 2 and (obj["field"], obj["why"]) == ("record",
                                                                      "not a hand record")
    with pytest.raises(ParseError, match="game record"):
        solve(json.loads((ROOT / "examples" / "game.json").read_text()))
    # a hand record missing its dealer is still refused for the dealer
    record, _ = _load("foster4_left4_lead_01")
    res = CliRunner().invoke(cli, ["solve", "--json", "-"],
                             input=json.dumps({k: v for k, v in record.items() if k != "dealer"}))
    assert json.loads(res.stdout)["field"] == "dealer"


def test_cli_refuses_a_revoke(tmp_path):
    # seat 1 discards a club on a spade lead while holding spades
    rules = Rules("foster", 4)
    rng = random.Random(3)
    while True:
        rec = random_ending(rng, "foster", 4, {}, 9)
        rec["play"] = []
        lead_seat = (rec["dealer"] + 1) % 4
        nxt = (lead_seat + 1) % 4
        lead = rec["hands"][lead_seat][0]
        suit = lead[1]
        follow = [c for c in rec["hands"][nxt] if c[1] == suit]
        other = [c for c in rec["hands"][nxt] if c[1] != suit]
        if follow and other:
            rec["play"] = [lead, other[0]]
            break
    p = tmp_path / "revoke.json"
    p.write_text(json.dumps(rec))
    res = subprocess.run([sys.executable, "-m", "catchten_sim.cli", "solve", str(p)],
                         capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "revoke" in res.stderr
    assert rules.players == 4


def test_cli_refuses_a_finished_play(tmp_path):
    record, _ = _load("foster4_left2_lead_01")
    sol = solve(record, line=True)
    p = tmp_path / "done.json"
    p.write_text(json.dumps(dict(record, play=record["play"] + list(sol.line))))
    res = CliRunner().invoke(cli, ["solve", str(p)])
    assert res.exit_code == 2


@pytest.mark.parametrize("name", ["foster4_left3_mid2_01", "jaques4_left3_mid2_01"])
def test_solver_runs_without_jit(name):
    """NUMBA_DISABLE_JIT=1 runs the search as plain Python, with the same values (honours
    only too: its bounds are called through an address with the JIT)."""
    code = ("import json; from catchten_sim.solve import solve; "
            f"print(json.dumps(solve({str(DD / (name + '.json'))!r}).values))")
    import os
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=300)
    assert res.returncode == 0, res.stderr
    _record, want = _load(name)
    assert json.loads(res.stdout) == {c["card"]: c["value"] for c in want["cards"]}


@pytest.mark.parametrize("name, honours", [("foster4_left3_mid2_01", False),
                                           ("jaques4_left3_mid2_01", True)])
def test_only_a_solve_with_honours_only_compiles_their_bounds(name, honours):
    """The honours-only bounds (``_honour_plans``, about 5 s of the solver's cold compile)
    are called through an address, compiled or loaded only when a solve scores honours
    only: a foster solve in a new process never makes them, a jaques solve does, and both
    give the shared case's values."""
    code = ("import json; from catchten_sim.solve import solve; "
            "from catchten_sim._kernels import solve as K; "
            f"v = solve({str(DD / (name + '.json'))!r}).values; "
            "print(json.dumps([v, len(K._honour_plans.overloads), len(K._PLANS)]))")
    import os
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=600)
    assert res.returncode == 0, res.stderr
    values, overloads, addresses = json.loads(res.stdout)
    _record, want = _load(name)
    assert values == {c["card"]: c["value"] for c in want["cards"]}
    assert (overloads, addresses) == ((1, 1) if honours else (0, 0))
