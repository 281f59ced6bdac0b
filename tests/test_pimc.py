"""PIMC: the double-dummy evaluator of advise, exact answers by enumeration, the pimc
policy, and information honesty (the answer never depends on the hidden truth)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catchten_sim import Rules
from catchten_sim.advise import advise, legal_cards
from catchten_sim.cards import cards_of_mask, format_card
from catchten_sim.cli import cli
from catchten_sim.dd import DoubleDummyEvaluator
from catchten_sim.determinize import Sampler
from catchten_sim.position import Position

from _positions import cut_position, enumerate_hidden

CASES = Path(__file__).parent / "cases" / "advise"
POSITIONS = sorted(p for p in CASES.glob("*.json")
                   if not p.name.endswith(".expected.json") and p.name != "index.json")


# ------------------------------------------------------------------ enumeration
@pytest.mark.parametrize("players,seed,n_played,variants", [
    (4, 3, 27, {}), (4, 11, 25, {}), (5, 2, 24, {}), (3, 5, 30, {"small_deal": "whole"}),
    (4, 8, 26, {"exposed_trump": True}), (2, 4, 28, {}), (5, 9, 30, {"keep_six_of_spades": True}),
])
def test_enumerate_is_every_consistent_deal_once(players, seed, n_played, variants):
    pos, _ = cut_position(Rules("foster", players, variants), seed, n_played)
    info = pos.info()
    sampler = Sampler(info)
    brute = enumerate_hidden(info)
    got = sampler.enumerate(sampler.n_deals)
    rows = [tuple(int(x) for x in r) for r in got]
    assert sampler.n_deals == len(brute)
    assert len(set(rows)) == len(rows)                 # each deal once
    assert set(rows) == set(brute)                     # every consistent deal
    # batches and offsets give the same deals (any split over threads)
    half = sampler.n_deals // 2
    again = np.concatenate([sampler.enumerate(half), sampler.enumerate(sampler.n_deals - half,
                                                                       start=half)])
    assert (again == got).all()
    with pytest.raises(ValueError):
        sampler.enumerate(2, start=sampler.n_deals - 1)


# ------------------------------------------------------------------ dd: exact cases
@pytest.mark.parametrize("path", [p for p in POSITIONS if not p.name.startswith("invalid")],
                         ids=lambda p: p.stem)
def test_advise_dd_exact_agrees_with_worked_cases(path):
    want = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    adv = advise(Position.from_json(path), evaluator="dd", threads=1)
    assert adv.exact and adv.stop == "exact"
    assert adv.n_samples == want["n_consistent_deals"]
    got = {x.name: x for x in adv.candidates}
    assert set(got) == {c["card"] for c in want["cards"]}
    for c in want["cards"]:
        x = got[c["card"]]
        assert x.value_sum == c["value_sum"]
        d = x.to_dict()
        assert d["mean_value"] == pytest.approx(c["mean_value"], abs=5e-7)
        e = x.estimates["diff"]
        assert e.lo == e.hi == e.mean                 # no sampling error
    best_value = max(c["mean_value"] for c in want["cards"])
    assert format_card(adv.best) in want["best"]
    assert adv.candidate(adv.best).to_dict()["mean_value"] == pytest.approx(best_value, abs=5e-7)
    js = adv.to_dict()
    assert js["exact"] is True and js["n_consistent_deals"] == want["n_consistent_deals"]


@pytest.mark.parametrize("path", [p for p in POSITIONS if p.name.startswith("invalid")],
                         ids=lambda p: p.stem)
def test_advise_dd_refuses_invalid_positions(path):
    want = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    res = CliRunner().invoke(cli, ["advise", str(path), "--evaluator", "dd"])
    assert res.exit_code == 2
    lines = [x for x in res.output.strip().splitlines() if x]
    assert len(lines) == 1 and want["why"] in lines[0]


def test_dd_values_equal_the_solver_on_each_deal():
    # the evaluator's values are the solver's values of the deal as dealt after the play
    from catchten_sim.solve import solve_values
    from catchten_sim.dd import dealt_hands
    pos, pd = cut_position(Rules("foster", 4), 7, 22, "heuristic")
    info = pos.info()
    cands = legal_cards(info)
    sampler = Sampler(info)
    hands = sampler.full_hands(sampler.sample(5, seed=3))
    ev = DoubleDummyEvaluator(info, cands)
    vals = ev.measures(hands, 0)["diff"]
    dealt = dealt_hands(info, hands)
    from dataclasses import replace
    for i in range(5):
        d = replace(pd.deal, set_hands=tuple(tuple(int(x) for x in row) for row in dealt[i]))
        _, _, v = solve_values(d.to_record(list(pos.play)))
        assert [v[c] for c in cands] == [int(x) for x in vals[i]]


def test_best_share_counts_deals_where_the_card_is_best():
    path = CASES / "foster4_left3_pos3_04.json"
    adv = advise(Position.from_json(path), evaluator="dd", threads=1)
    info = adv.position.info()
    sampler = Sampler(info)
    cands = list(adv._cands)
    vals = DoubleDummyEvaluator(info, cands).measures(
        sampler.full_hands(sampler.enumerate(sampler.n_deals)), 0)["diff"]
    best = vals == vals.max(axis=1, keepdims=True)
    for j, c in enumerate(cands):
        assert adv.candidate(c).best_share == pytest.approx(best[:, j].mean())


def test_exact_rollout_with_the_heuristic_has_no_error_and_matches_sampling_mean():
    path = CASES / "foster4_left3_lead_05.json"
    pos = Position.from_json(path)
    ex = advise(pos, evaluator="rollout", threads=1)
    assert ex.exact and ex.z == 0
    for x in ex.candidates:
        e = x.estimates["diff"]
        assert e.lo == e.hi
    # sampling the same position converges on the exact means
    sm = advise(pos, evaluator="rollout", exact_max=0, samples=20_000, stop_early=False,
                threads=1, seed=5)
    assert not sm.exact
    for x in ex.candidates:
        e = sm.candidate(x.card).estimates["diff"]
        assert e.lo <= x.estimates["diff"].mean <= e.hi


def test_dd_refuses_objectives_it_cannot_give():
    from catchten_sim.errors import CatchTenError
    pos = Position.from_json(CASES / "foster4_left3_lead_01.json")
    with pytest.raises(CatchTenError, match="objective"):
        advise(pos, evaluator="dd", objective="points")


def test_dd_shows_the_rollouts_answer_and_flags_disagreement():
    path = CASES / "foster4_left3_pos3_04.json"
    adv = advise(Position.from_json(path), evaluator="dd", threads=1)
    js = adv.to_dict()
    other = js["other_evaluator"]
    assert other["evaluator"] == "rollout"
    assert {c["card"] for c in other["candidates"]} == {x.name for x in adv.candidates}
    # the note is one line, and it names both answers when present
    assert "\n" not in adv.model_note
    if adv.model_note:
        assert "dd" in adv.model_note and "rollouts" in adv.model_note
