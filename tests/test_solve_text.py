"""``catchten solve --line``: the text names trumps and, for every card of the line, the
seat that plays it (cards already played in brackets)."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from catchten_sim.cli import cli
from catchten_sim.records import load_record, score_record

CASES = Path(__file__).parent / "cases" / "dd"


def test_solve_line_names_trumps_and_seats():
    path = next(p for p in sorted(CASES.glob("foster4_*mid*.json"))
                if not p.name.endswith(".expected.json"))
    data = load_record(path)
    res = CliRunner().invoke(cli, ["solve", str(path), "--line"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    trumps = score_record(data)["trumps"]
    assert f"trumps {trumps} (turn-up {data['turnup']})" in lines[0]
    tricks = [x for x in lines if x.strip().startswith("trick ")]
    assert tricks
    done = data["play"]
    first = len(done) // 4
    for k, line in enumerate(tricks):
        body, winner = line.split("->")
        plays = [p.split() for p in body.split(":", 1)[1].split(",")]
        assert len(plays) == 4 and int(winner.split()[-1]) in range(4)
        seats = [int(p[1]) for p in plays]
        assert seats == [(seats[0] + j) % 4 for j in range(4)]
        if k == 0:                               # the cards already played, bracketed
            shown = [p[2] for p in plays]
            before = done[first * 4:]
            assert [c.strip("()") for c in shown[:len(before)]] == before
            assert all(c.startswith("(") for c in shown[:len(before)])


def test_bracket_note_only_when_some_card_is_in_brackets():
    """From a lead (no card of the current trick played) no card is bracketed, and the
    footer does not speak of brackets; mid-trick it does."""
    for name, bracketed in (("foster4_left4_lead_01", False), ("foster4_left3_mid2_01", True)):
        res = CliRunner().invoke(cli, ["solve", str(CASES / f"{name}.json"), "--line"])
        assert res.exit_code == 0, res.output
        body = res.output.split("line (each card", 1)[1]
        final = next(x for x in res.output.splitlines() if x.strip().startswith("final:"))
        assert ("(" in body.replace(final, "")) is bracketed
        assert ("cards in brackets were already played" in final) is bracketed
