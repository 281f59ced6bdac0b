"""``POST /api/check`` on what the page's paste box and file button take: a position
(advise's checks) or a hand record (``catchten solve``'s), checked whole; a game record,
a bad field or anything else refused with one line naming it (the route answers the
line as a 400: tests/test_serve.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from catchten_sim.errors import CatchTenError
from catchten_sim.serve.api import check_json

ROOT = Path(__file__).resolve().parent.parent
RECORD = json.loads((ROOT / "tests" / "cases" / "dd" / "foster4_left4_lead_01.json")
                    .read_text())
POSITION = json.loads((ROOT / "examples" / "position-lead.json").read_text())


def _bad_card(rec: dict) -> dict:
    hands = [list(h) for h in rec["hands"]]
    hands[2][1] = "XX"
    return {**rec, "hands": hands}


def test_each_kind_that_the_page_takes_is_named():
    assert check_json({"input": POSITION}) == {"ok": True, "kind": "position"}
    assert check_json({"input": RECORD}) == {"ok": True, "kind": "hand record"}
    # a finished hand (examples/hand.json): the page shows it over, and rewinds it
    done = json.loads((ROOT / "examples" / "hand.json").read_text())
    assert check_json({"input": done}) == {"ok": True, "kind": "hand record"}
    assert check_json({"position": POSITION}) == {"ok": True}   # the older form


@pytest.mark.parametrize("what, data, line", [
    ("a bad card in a hand", _bad_card(RECORD), 'hands: malformed card (hands[2][1]="XX")'),
    ("a card played twice", {**RECORD, "play": RECORD["play"] + RECORD["play"][:1]},
     "play: "),
    ("a game record", json.loads((ROOT / "examples" / "game.json").read_text()),
     "record: not a hand record (this is a game record"),
    ("a list", [RECORD], "input: not a position or hand record (a list"),
    ("a bad position", {**POSITION, "hand": ["XX"]}, "hand: malformed card"),
])
def test_a_wrong_paste_is_refused_whole_with_one_line(what, data, line):
    with pytest.raises(CatchTenError) as exc:
        check_json({"input": data})
    assert exc.value.line().startswith(line), (what, exc.value.line())


def test_the_body_gives_one_thing_to_check():
    for body in ({}, {"position": POSITION, "input": RECORD}):
        with pytest.raises(CatchTenError) as exc:
            check_json(body)
        assert exc.value.line().startswith("body: "), exc.value.line()
