"""Every bad input the command line refuses is one line: exit 2, ``error: FIELD: ...``
naming the field (the option's name as typed, or the file's key), within 80 columns
whatever the user wrote (a long value or file name is shortened in the middle), the
field's word said once; with ``--json`` the same field as an error object. (Fresh users
met lines of 81-158 columns: a temp path in a JSON error, an unknown policy, a score
list; ``variants:`` for ``--variant``; ``players: players out of range``.) Each case is
refused before any work: a few ms each, the whole sweep well under a second."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from catchten_sim.cli import cli

POSITION = {"rules": "foster", "players": 4, "dealer": 0, "seat": 1, "turnup": "7S",
            "hand": ["KH", "QH", "JH", "9H", "7H", "AS", "KS", "QS", "JS"], "play": []}
FLAGS = ["--dealer", "0", "--seat", "1", "--hand", "KH QH JH 9H 7H AS KS QS JS",
         "--turnup", "7S"]
LONG = "nobodyatallhereeee"
DD_RECORD = str(Path(__file__).parent / "cases" / "dd" / "foster2sets_left8_mid1_01.json")

#: files a case names as {NAME}, written under a long directory (pytest's tmp_path plus a
#: long name: the path alone is over 80 columns)
FILES = {
    "badjson": ("position-file-with-a-long-name.json", '{"players": 4,\n'),
    "quotes": ("record-file-with-a-long-name.json", "{'players': 4}"),
    "missing": ("no-such-file-with-a-very-long-name-indeed.json", None),
    "colour": ("pos-key.json", json.dumps({**POSITION, "colour": 1})),
    "badcard": ("pos-card.json", json.dumps({**POSITION, "hand": ["KH", "QX"]})),
    "handtext": ("pos-hand.json", json.dumps({**POSITION, "hand": "KH QH"})),
    "score": ("pos-score.json", json.dumps({**POSITION, "score": [50, 60]})),
    "toml": ("rules-file-with-a-long-name.toml", 'rules = "foster"\nplayers = 4x\n'),
    "tomlkey": ("rules-key.toml", 'rules = "foster"\ncolour = 4\n'),
    "tomlmissing": ("missing-rules-file-with-a-long-name.toml", None),
    # the dealer to play to the first trick, the turn-up left out of the hand (146 cols)
    "dealerhand": ("pos-dealer.json", json.dumps({
        **POSITION, "seat": 0, "hand": POSITION["hand"][:-1], "play": ["6H", "8H", "TH"]})),
    # ... and a full hand without it (113 cols)
    "dealerturnup": ("pos-dealer-turnup.json", json.dumps({
        **POSITION, "seat": 0, "play": ["6H", "8H", "TH"]})),
}

CASES = [
    (["advise", "{badjson}"], "position"),
    (["score", "{quotes}"], "record"),
    (["advise", "{missing}"], "position"),
    (["advise", "{colour}"], "colour"),
    (["advise", "{badcard}"], "hand"),
    (["advise", "{handtext}"], "hand"),
    (["advise", "{score}"], "score"),
    (["simulate", "--rules-file", "{toml}"], "rules-file"),
    (["simulate", "--rules-file", "{tomlkey}"], "colour"),
    (["simulate", "--rules-file", "{tomlmissing}"], "rules-file"),
    (["simulate", "--variant", "bogus"], "variant"),
    (["simulate", "--variant", "tie=bogus"], "variant"),
    (["simulate", "--variant", "tie=count_outt"], "variant"),
    (["simulate", "--variant", f"tie={LONG * 3}"], "variant"),
    (["simulate", "--variant", "target=0"], "variant"),
    (["simulate", "--variant", "tie=replay", "--variant", "tie=count_out"], "variant"),
    (["rules", "--variant", "game_at_once", "--variant", "revoke=hand"], "variant"),
    (["rules", "-r", "jaques", "-n", "6", "-V", "six_as_three_pairs", "-V",
      "six_players=triples"], "variant"),
    (["rules", "-r", "jaques", "-V", "dealer_declares", "-V", "exposed_trump"], "variant"),
    (["simulate", "--players", "9"], "players"),
    (["simulate", "--rules", "whistle-and-flute"], "rules"),
    (["match", "heuristic", LONG], "B"),
    (["simulate", "--policy", LONG], "policy"),
    (["simulate", "--seat-policy", f"1={LONG}"], "seat-policy"),
    (["match", "heuristic", f"pimc:{LONG}"], "B"),
    (["advise", *FLAGS, "--opponents", LONG * 2], "opponents"),
    (["advise", "{dealerhand}"], "hand"),
    (["advise", "{dealerturnup}"], "turnup"),
    (["advise", *FLAGS, "--evaluator", LONG * 2], "evaluator"),
    (["advise", *FLAGS, "--objective", LONG * 2], "objective"),
    (["advise", *FLAGS, "--infer", LONG * 2], "infer"),
    (["equity", "--method", LONG * 2], "method"),
    (["odds", "--hand", "KH QX 5Z", "--turnup", "7S"], "hand"),
    (["odds", "--hand", "KH KH", "--turnup", "7S"], "hand"),
    (["odds", "--hand", "KH"], "turnup"),
    (["advise", *FLAGS, "--score", "30 a"], "score"),
    (["advise", *FLAGS, "--score", "1 2 3"], "score"),
    (["equity", "--scores", "50 60"], "scores"),
    (["equity", "--scores", "1 2 3 4 5 6 7 8 9 10 11 12 13"], "scores"),
    (["simulate", "--deals", "-1"], "deals"),
    (["match", "heuristic", "random", "--deals", "1"], "deals"),
    # a list where one name belongs; pimc's N out of range; arguments beyond the last
    (["simulate", "--policy", "heuristic,random"], "policy"),
    (["simulate", "--seat-policy", "1=random,2=random"], "seat-policy"),
    (["simulate", "--policy", "pimc:0"], "policy"),
    (["match", "heuristic", "random", "pimc", "random"], "arguments"),
    (["simulate", "extra"], "arguments"),
    # issue 26's budgets: a node budget beyond any count (was an internal OverflowError,
    # exit 1, 98 columns)
    (["solve", DD_RECORD, "--max-nodes", "9" * 23], "max-nodes"),
    (["solve", DD_RECORD, "--time", "nan"], "time"),
]


@pytest.fixture
def files(tmp_path):
    where = tmp_path / "a-rather-long-directory-name-for-the-files-of-this-sweep"
    where.mkdir()
    out = {}
    for key, (name, text) in FILES.items():
        out[key] = str(where / name)
        if text is not None:
            (where / name).write_text(text)
    assert len(out["badjson"]) > 80
    return out


def _run(args):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, args, catch_exceptions=False)


@pytest.mark.parametrize("args, field", CASES)
def test_bad_input_is_one_short_line_naming_its_field(args, field, files):
    args = [a.format(**files) for a in args]
    res = _run(args)
    assert res.exit_code == 2, (res.exit_code, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and res.stdout == "", res.stderr
    line = lines[0]
    assert line.startswith(f"error: {field}: "), line
    assert len(line) <= 80, (len(line), line)
    said = line[len(f"error: {field}: "):].split()[0]
    assert said.lower() not in (field, field + "s", field.rstrip("s")), line
    res = _run([*args, "--json"])
    assert res.exit_code == 2
    assert json.loads(res.stdout)["field"] == field, res.stdout


def test_the_json_keeps_what_the_line_shortens(files):
    """The line shortens the file's name; the JSON error object keeps it whole, and the
    reason as docs/formats.md lists it (``players out of range``)."""
    res = _run(["advise", files["badjson"], "--json"])
    assert files["badjson"] in json.loads(res.stdout)["detail"]
    res = _run(["simulate", "--players", "9", "--json"])
    assert json.loads(res.stdout)["why"] == "players out of range"
    # the known policies do not fit the line beside a long field: it points to them (the
    # help of the command in use, simulate's: a value of 15 letters leaves it room), the
    # JSON lists them
    res = _run(["simulate", "--seat-policy", f"1={LONG[:15]}"])
    assert "see: catchten simulate --help" in res.stderr and "pimc" not in res.stderr
    res = _run(["simulate", "--seat-policy", f"1={LONG[:15]}", "--json"])
    assert "known: random, heuristic, pimc[:N], ipimc[:N]" in json.loads(res.stdout)["detail"]
    # an unknown option's name is the field: a long one is shortened on the line (91
    # columns), whole in the JSON
    res = _run(["simulate", f"--{LONG * 3}"])
    line = res.stderr.strip()
    assert res.exit_code == 2 and len(line) <= 80 and "unknown option" in line, line
    assert line.startswith(f"error: {LONG[:8]}") and "..." in line.split(":")[1], line
    res = _run(["simulate", f"--{LONG * 3}", "--json"])
    assert json.loads(res.stdout)["field"] == LONG * 3


@pytest.mark.parametrize("value", [None, 5, "it's", LONG * 3])
def test_api_unknown_names_are_said_in_plain_words(value):
    """An unknown policy, evaluator, model or report format from Python (or the page) said
    ``None``, ``'it's'`` (Python's quotes) or a known list of 84-94 columns: each is one
    line of the same form, ``FIELD: unknown WHAT (VALUE; HINT)``, within the width, the
    value as written (a text in double quotes, else in plain words). (``infer=None``: no
    model, not an error.)"""
    from catchten_sim.errors import LINE_PREFIX, LINE_WIDTH, CatchTenError
    from catchten_sim.inference import for_advice
    from catchten_sim.policies import Policy
    from catchten_sim.report import parse_formats
    calls = [(lambda: Policy.parse(value), "policy"),
             (lambda: Policy.parse(value, "seat-policy"), "seat-policy"),
             (lambda: parse_formats([value]), "format"),
             (lambda: for_advice(None, value, "dd"), "infer")][:3 if value is None else 4]
    for call, field in calls:
        with pytest.raises(CatchTenError) as e:
            call()
        line = e.value.line()
        assert line.startswith(f"{field}: unknown "), line
        assert len(line) <= LINE_WIDTH - len(LINE_PREFIX), line
        assert not any(w in line for w in ("None", "'it", "NoneType")), line


def test_cli_and_python_say_an_unknown_switch_in_the_same_words():
    """``--variant bogus`` and ``Rules(variants={"bogus": ...})`` are one sentence; only
    the field differs, each named as its caller wrote it (``variant``, ``variants``)."""
    from catchten_sim import Rules
    from catchten_sim.errors import CatchTenError
    with pytest.raises(CatchTenError) as e:
        Rules("foster", 4, {"tie": "bogus"})
    line = _run(["simulate", "--variant", "tie=bogus"]).stderr.strip()
    assert line == f"error: variant: {e.value.line().split(': ', 1)[1]}"
    assert e.value.field == "variants"


def test_api_values_in_other_messages_are_said_in_plain_words():
    """The same defect as ``not NoneType`` in other messages: ``seat None``,
    ``first_dealer`` ``None``, ``trump='x'``, a page's ``null`` flag said
    ``early_stop=None``: each value is said in plain words (errors.described)."""
    from catchten_sim import Rules
    from catchten_sim.errors import CatchTenError
    from catchten_sim.games import simulate_games
    from catchten_sim.policies import seat_policies
    from catchten_sim.serve.api import _flag
    declares = Rules("jaques", 4, {"dealer_declares": True})
    calls = [(lambda: seat_policies(Rules(), seats={None: "random"}), "got no value"),
             (lambda: simulate_games(Rules(), n_games=1, first_dealer=None), "got no value"),
             (lambda: simulate_games(Rules(), n_games=1, first_dealer="it's"),
              'got the text "it\'s"'),
             (lambda: declares.deal_trump(None, "x"), 'got the text "x"'),
             (lambda: _flag({"early_stop": None}, "early_stop", True), "got no value")]
    for call, words in calls:
        with pytest.raises(CatchTenError) as e:
            call()
        line = e.value.line()
        assert words in line and "None" not in line and "='" not in line, line


@pytest.mark.parametrize("args, said", [
    # a value of 20 characters or fewer is whole, the hint gives way first (it was
    # '"heuristi...uristic"', '"rando...andom"': a valid name that looked refused)
    (["simulate", "--policy", "heuristic,random"],
     'policy: one policy, not a list ("heuristic,random")'),
    (["simulate", "--seat-policy", "1=random,2=random"], '"random,2=random"'),
    (["simulate", "--policy", "nobodyatallhereeeeee"], '"nobodyatallhereeeeee"'),
    (["simulate", "--policy", "pimc:0"], "out of range (\"pimc:0\": pimc:N needs N from 1"),
    (["match", "heuristic", "random", "pimc", "random"],
     "arguments: unexpected extra (pimc random; see: catchten match --help)"),
])
def test_short_values_are_said_whole_and_the_problem_by_its_name(args, said):
    res = _run(args)
    assert res.exit_code == 2 and said in res.stderr, res.stderr


@pytest.mark.parametrize("command, takes_pimc", [
    ("simulate", True), ("report", True), ("advise", True), ("odds", False),
    ("equity", False)])
def test_help_names_every_policy_it_takes(command, takes_pimc):
    """report played pimc:2 for 10 minutes while its help listed random and heuristic
    only; odds and equity refuse the PIMC players, and their help does not list them."""
    res = _run([command, "--help"])
    assert ("pimc[:N]" in res.output and "ipimc[:N]" in res.output) == takes_pimc


@pytest.mark.parametrize("command", ["odds", "equity"])
def test_a_refused_pimc_is_named_by_the_option_that_set_it(command):
    """``--opponents ipimc:3`` was reported as the field ``policy``."""
    hand = ["--hand", "JS AS 9S KH QH 7D 8C 9C TC", "--turnup", "7S"] \
        if command == "odds" else []
    for args, field, name in ((["--opponents", "ipimc:3"], "opponents", "ipimc"),
                              (["--policy", "pimc:2"], "policy", "pimc"),
                              (["--policy", "pimc:2", "--seat", "1"], "policy", "pimc")):
        if command == "equity" and "--seat" in args:
            continue
        res = _run([command, *args, *hand])
        assert res.exit_code == 2, res.stderr
        assert res.stderr.startswith(f"error: {field}: not available ("), res.stderr
        assert res.stderr.strip().endswith(f"heuristic or random, not {name})"), res.stderr


def test_odds_refusing_pimc_names_odds():
    """It named "advise's rollouts", a command the user had not run."""
    res = _run(["odds", "--policy", "pimc:2", "--hand", "AS KS QS JS TS 9S 8S 7S 6S",
                "--turnup", "7D"])
    assert res.exit_code == 2, res.stderr
    assert res.stderr.strip() == ("error: policy: not available (odds: heuristic or random, "
                                  "not pimc)"), res.stderr
    assert "advise" not in res.stderr


def test_a_position_without_players_says_missing():
    from catchten_sim import advise
    from catchten_sim.errors import CatchTenError
    with pytest.raises(CatchTenError) as info:
        advise({"rules": "foster"})
    assert (info.value.field, info.value.why) == ("players", "missing"), info.value.line()
