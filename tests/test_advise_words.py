"""The words of ``catchten advise`` around its numbers: the MODEL lines (each model's
pick and how firmly it beats its own second, by the test of the ``best:`` line; at most two
lines of 80 columns), the line on which evaluator to trust (text and JSON, one sentence
for the text, the JSON and the page), inference with no card of the others seen yet, the
legend of a tie, the header's evaluator, the opponents' term and the bounded deals.

Each test is well under 1 s on a warm engine cache (the dd runs solve 16 opening deals)."""
from __future__ import annotations

import itertools
import json
from dataclasses import replace

import numpy as np
import pytest
from rich.console import Console

from catchten_sim.advise import Comparison, _compare_models, _ranked, advise
from catchten_sim.aggregate import CandidateSums, LookPlan, pair_estimate
from catchten_sim.cards import Card, parse_cards
from catchten_sim.evaluators import legal_cards
from catchten_sim.explain import (WHICH_TO_TRUST, model_lines, model_note, separation)
from catchten_sim.position import Position
from catchten_sim.text import print_advice

# xdist: the two advice runs (module fixtures) are made once, on one worker
pytestmark = pytest.mark.xdist_group("advise_words")

OPENING = {"players": 4, "dealer": 3, "seat": 0, "turnup": "7S",
           "hand": "JS AS 9S KH QH 7D 8C 9C TC".split(), "play": []}
DD = dict(evaluator="dd", samples=16, stop_early=False, threads=1, seed=1, time_limit=None)


def _text(a) -> list[str]:
    con = Console(record=True, width=80)
    print_advice(a, con)
    return con.export_text().splitlines()


@pytest.fixture(scope="module")
def dd_run():
    return advise(Position.from_dict(OPENING), **DD)


@pytest.fixture(scope="module")
def rollout_run():
    return advise(Position.from_dict(OPENING), samples=256, threads=1, seed=1)


# ------------------------------------------------------------------------ MODEL lines
def test_model_lines_fit_two_lines_of_80_columns_whatever_the_words():
    """Every answer either model can give (each firmness word of the best-card test,
    each answer to "lead a trump?" with at least one YES or NO, a remark on a shorter
    run of 3 or 5 digits, said as a short check on so many deals): at most two lines of
    at most 80 columns; the JSON's one line keeps every part. Pure text: well under
    1 s."""
    words = ["separated", "not separated", "within margin", "exact"]
    answers = ["YES", "NO", "too close to call", "no practical difference"]
    seen = 0
    for wd, wo, (td, to), n in itertools.product(
            words, words, itertools.product(answers, answers), (256, 12_256, 20_000)):
        if not {td, to} & {"YES", "NO"}:
            continue
        for card, trump in (((("JS", wd, "7D", wo)), None), (None, (td, to)),
                            (("JS", wd, "7D", wo), (td, to))):
            lines = model_lines(card, trump, "heuristic", n, 20_000)
            assert 1 <= len(lines) <= 2 and all(len(x) <= 80 for x in lines), lines
            note = model_note(lines)
            assert "\n" not in note and ("a short check" in note
                                         and f"on {n:,} deals" in note) == (n < 20_000)
            seen += 1
    assert seen > 100
    assert model_lines(None, None, "heuristic", 256, 20_000) == []


def _sums(cands, values):
    acc = CandidateSums(len(cands), ["diff"], "diff")
    acc.add({"diff": values})
    return acc


def test_model_words_are_the_best_lines_test_of_the_pick_against_its_second():
    """dd's pick JS beats the rollouts' pick 7D by 4 points on every deal (the models
    disagree firmly) but is not separated from its own second AS: the MODEL line says so
    with the words of the ``best:`` line's test (was: "firm", from JS against 7D, under a
    best line saying "not separated"). Fabricated sums, no engine: well under 1 s."""
    info = Position.from_dict(OPENING).info()
    cands = legal_cards(info)
    js, as_, d7 = (cands.index(c) for c in parse_cards(["JS", "AS", "7D"]))
    n = 256
    base = np.tile(np.arange(len(cands), dtype=float) * -3 + 10, (n, 1))
    dd, ro = base.copy(), base.copy()
    dd[:, js], dd[:, d7] = 30.0, 26.0
    dd[:, as_] = 29.7 + 4.0 * np.where(np.arange(n) % 2, 1.0, -1.0)
    ro[:, d7], ro[:, js], ro[:, as_] = 25.0, 20.0, 19.0
    acc, acc_o = _sums(cands, dd), _sums(cands, ro)
    z = LookPlan(20_000).z_at(n)
    own = Comparison(Card(cands[js]), Card(cands[as_]), pair_estimate(acc, js, as_, z), 0.25)
    vs_pick = Comparison(Card(cands[js]), Card(cands[d7]), pair_estimate(acc, js, d7, z),
                         0.25)
    assert own.verdict == "not separated" and vs_pick.verdict == "separated"
    other, lines = _compare_models(acc, acc_o, cands, info, (z, z), 0.25,
                                   _ranked(acc, cands, {}, z, 0.25), 20_000)
    assert lines and lines[0].startswith(
        f"MODEL: best card dd JS ({separation(own.verdict, False, short=True)}), "
        f"heuristic rollouts 7D ({separation(other['margin']['verdict'], False, True)})")
    assert other["second"] == "JS" and other["separation"] == "separated at 95%"


def test_a_real_dd_runs_model_line_agrees_with_its_best_line(dd_run):
    """On a dd run of 16 opening deals with a MODEL line: dd's word there is the one of
    its ``best:`` line, and the printed lines are the advice's (at most 2, 80 columns)."""
    a = dd_run
    assert a.model_lines, "this run was chosen for its MODEL line"
    word = separation(a.margin.verdict, a.z == 0 and not a.bounded, short=True)
    if "best card" in a.model_lines[0]:
        assert f"dd {a.best} ({word})" in a.model_lines[0]
    text = _text(a)
    at = text.index(a.model_lines[0])
    assert text[at:at + len(a.model_lines)] == list(a.model_lines)
    assert len(a.model_lines) <= 2 and json.loads(json.dumps(a.to_dict()))[
        "model_note"] == a.model_note


# ------------------------------------------------------------------ which to trust
def test_which_to_trust_is_one_line_in_every_advice_and_its_json(dd_run, rollout_run):
    """The same sentence, once, in the text of a rollout run and of a dd run, and as
    ``which_to_trust`` in their JSON; it fits 80 columns."""
    assert len(WHICH_TO_TRUST) <= 80 and "\n" not in WHICH_TO_TRUST
    for a in (dd_run, rollout_run):
        assert _text(a).count(WHICH_TO_TRUST) == 1
        assert a.to_dict()["which_to_trust"] == WHICH_TO_TRUST


# ------------------------------------------------------------------------ inference
def test_inference_with_no_card_of_the_others_says_worlds_are_equally_likely(dd_run):
    """At trick 1 on lead no card of the others counts: every weight is 1 and the answer
    is the unweighted one; the text and the JSON say so instead of drawn/effective size."""
    a = advise(Position.from_dict(OPENING), infer="heuristic", **DD)
    inf = a.to_dict()["inference"]
    assert inf["cards_seen"] == 0 and inf["effective_size"] == inf["worlds_drawn"] == 16
    assert "no cards played by the others yet" in inf["note"]
    assert [x.estimates["diff"].mean for x in a.candidates] == pytest.approx(
        [x.estimates["diff"].mean for x in dd_run.candidates])
    text = "\n".join(_text(a))
    assert inf["note"] in text and "effective size" not in text


def test_inference_with_cards_of_the_others_shows_drawn_and_effective_size():
    """Seat 1 to play after seat 0's lead: that card counts, and the text gives the worlds
    drawn and their effective size."""
    pos = dict(OPENING, seat=1, hand="9H TH JH QD KD AD 6C 7C 8C".split(), play=["7D"])
    a = advise(Position.from_dict(pos), infer="heuristic", **DD)
    inf = a.to_dict()["inference"]
    assert inf["cards_seen"] == 1 and inf["note"] is None
    text = "\n".join(_text(a))
    assert "effective size" in text and "no cards played" not in text


# ------------------------------------------------------------------------ tables, header
def test_a_tie_is_explained_under_the_table(dd_run, rollout_run):
    """A card tied with the best (``X=Y``) gets a legend naming the pair; without a tie,
    no legend."""
    for a in (dd_run, rollout_run):
        plain = replace(a, candidates=tuple(replace(x, equivalent_to=None)
                                            for x in a.candidates))
        assert not any("exactly on every deal" in ln for ln in _text(plain))
        x, y = a.candidates[1], a.candidates[0]
        tied = replace(a, candidates=(y, replace(x, equivalent_to=y.card))
                       + a.candidates[2:])
        text = _text(tied)
        assert any(ln.startswith(f" {x.name}={y.name} ") for ln in text)
        assert f"{x.name}={y.name}: {x.name} gave {y.name}'s point difference exactly on " \
            "every deal evaluated (a tie)." in text


def test_header_says_what_plays_after_the_card_and_one_term_for_opponents(dd_run,
                                                                          rollout_run):
    """dd's header names perfect play, not the policies (they drive only the rollouts
    beside it); the rollouts' names their policy; both tables say "opponents"; a bounded
    run says what its bounded deals are."""
    dd, ro = (" ".join(" ".join(_text(a)).split()) for a in (dd_run, rollout_run))
    assert "evaluator dd (perfect play, every hand seen)" in dd
    assert "policies" not in dd and "policies" not in ro
    assert "evaluator rollout (heuristic play after the card)" in ro
    assert "minus the opponents'" in dd and "minus opponents" in ro
    assert "others'" not in dd.split("in words")[0] and "best opponents" not in ro
    bounded = " ".join(" ".join(_text(replace(dd_run, bounded=3))).split())
    assert "3 of 16 deals stopped at the node budget or the clock: their values are " \
        "ranges" in bounded


#: a small ending (foster, 3 tricks left, clubs led): 7C and 8C, the legal cards, score
#: alike on every one of its 160 consistent deals, so the run has no second card
EQUAL_ENDING = {"rules": "foster", "players": 4, "dealer": 2, "seat": 0,
                "hand": ["AD", "7C", "8C"], "turnup": "9H",
                "play": "6S 8S JS QS 7S TS AS 6H JH 9H 8H TH 6D 7D 9D TD 6C QC 9C JC 8D JD "
                        "AH KD KC".split()}


def test_cards_of_the_same_value_are_all_named_never_the_only_card():
    """A run whose legal cards all score as the best on every deal (no margin: no second
    card) names them all, "play 7C or 8C: the same value on every deal", in the CLI's
    ``in words:`` and the page's words alike; "the only card" only when one is legal."""
    from catchten_sim.serve.words import best_words, plain_lines
    a = advise(Position.from_dict(EQUAL_ENDING), **{**DD, "samples": 1000})
    d = a.to_dict()
    assert d["margin"] is None and d["exact"]
    assert [c["card"] for c in d["candidates"]] == ["7C", "8C"]
    line = plain_lines(d)[0]
    assert line.endswith(": play 7C or 8C: the same value on every deal."), line
    text = " ".join(" ".join(_text(a)).split())
    assert "in words: If everyone plays perfectly after it (all hands seen): play 7C " \
        "or 8C: the same value on every deal." in text
    assert "only card" not in text
    three = {**d, "candidates": [{"card": c} for c in ("8C", "KC", "AC")], "best": "8C"}
    assert best_words(three) == "play 8C, KC or AC: the same value on every deal"
    one = {**d, "candidates": d["candidates"][:1]}
    assert best_words(one) == "play 7C (the only legal card)"
