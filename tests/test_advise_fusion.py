"""advise --evaluator dd adds the fusion-aware values (one card per information set,
catchten_sim.fusion) on a small ending, and says why not elsewhere (issue 25 item 4)."""
from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from catchten_sim import Rules
from catchten_sim.advise import advise
from catchten_sim.cards import cards_of_mask, format_card
from catchten_sim.endings import ending
from catchten_sim.fusion import fusion_values, node_of, worlds_of
from catchten_sim.position import Position
from catchten_sim.state import rule_tables
from catchten_sim.text import print_advice

# xdist: the ending (module fixture) is found once, on one worker
pytestmark = pytest.mark.xdist_group("advise_fusion")

R4 = Rules("foster", 4)


def _position(rules: Rules, d, seat: int, prefix) -> Position:
    st = (len(prefix) // rules.players) // rules.set_size
    hand = [c for c in cards_of_mask(d.set_hands[st][seat]) if c not in set(prefix)]
    return Position(rules, d.dealer, seat, tuple(hand), d.turnup, tuple(prefix),
                    tuple(d.dead), None, d.trump if d.turnup is None else None)


@pytest.fixture(scope="module")
def the_ending():
    d, prefix = ending(R4, seed=2, index=71, tricks=3, into=2)
    return d, prefix, _position(R4, d, 0, prefix)


def test_advise_dd_shows_the_fusion_values_where_pimc_errs(the_ending):
    d, prefix, pos = the_ending
    adv = advise(pos, evaluator="dd", seed=1)
    js = adv.to_dict()
    worlds = worlds_of(d, prefix, 0, 1000)
    direct = fusion_values(R4, rule_tables(R4, d.trump), worlds, 0)
    assert js["exact"] and js["fusion_reason"] is None
    assert js["fusion"]["worlds"] == len(worlds) == js["n_consistent_deals"]
    got = {x["card"]: x["fusion"] for x in js["candidates"]}
    # on the dd column's scale: each card's dd mean minus what committing to one card
    # per information set costs it (PIMC's mean minus the fusion value, rest of the set)
    dd_mean = {x.name: x.estimates["diff"].mean for x in adv.candidates}
    assert got == pytest.approx({format_card(c): dd_mean[format_card(c)] - (v[0] - v[1])
                                 for c, v in direct.items()}, abs=1e-6)
    assert all(got[c] <= dd_mean[c] + 1e-6 for c in got)  # (JSON rounds to 6 places)
    assert got[js["best"]] < dd_mean[js["best"]] - 0.1       # and costs PIMC's card here
    fusion_best = max(got.values())
    assert got[js["fusion"]["best"]] == fusion_best
    # PIMC (the dd means) picks a card the fusion-aware value ranks strictly lower
    assert got[js["best"]] < fusion_best - 0.1
    out = io.StringIO()
    with redirect_stdout(out):
        print_advice(adv)
    lines = out.getvalue().splitlines()
    assert any(f"fusion-aware, {len(worlds)} deals): best {js['fusion']['best']}" in x
               for x in lines)
    ours = [x for x in lines if "fusion-aware" in x or "values (as the dd column)" in x]
    assert len(ours) == 2 and all(len(x) <= 80 for x in ours)


def test_fusion_is_null_with_a_reason_outside_its_scope(the_ending):
    _, _, pos = the_ending
    js = advise(pos, evaluator="rollout", samples=256, seed=1).to_dict()
    assert js["fusion"] is None and "dd evaluator" in js["fusion_reason"]
    assert all(x["fusion"] is None for x in js["candidates"])
    lead = Position.from_dict({"players": 4, "dealer": 3, "seat": 0, "turnup": "7S",
                               "hand": "JS AS 9S KH QH 7D 8C 9C TC".split(), "play": []})
    js = advise(lead, evaluator="dd", samples=64, seed=1, cards=["7D", "AS"]).to_dict()
    assert js["fusion"] is None and "tricks left" in js["fusion_reason"]
    r5 = Rules("foster", 5)
    d5, p5 = ending(r5, seed=2, index=3, tricks=2, into=1)
    js = advise(_position(r5, d5, node_of(d5, p5).to_move, p5), evaluator="dd",
                seed=1).to_dict()
    assert js["fusion"] is None and "4 players" in js["fusion_reason"]


def test_a_ctrl_c_in_the_fusion_search_keeps_the_dd_advice(the_ending, monkeypatch):
    import catchten_sim.fusion as F

    def stop(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(F, "fusion_values", stop)
    js = advise(the_ending[2], evaluator="dd", seed=1).to_dict()
    assert js["exact"] and js["best"] == "7S"
    assert js["fusion"] is None and "interrupted" in js["fusion_reason"]
