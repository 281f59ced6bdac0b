"""The ``catchten`` command line through click's CliRunner (DESIGN.md §6; docs/formats.md).

Bad input: exit status 2 and exactly one line on stderr, ``error: FIELD: WHY (detail)``,
naming the field; never a traceback. click 8.2+ keeps stderr apart in the runner
(``result.stdout`` / ``result.stderr``); older versions need ``mix_stderr=False``.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from catchten_sim.cli import cli
from catchten_sim.errors import said_why

CASES = Path(__file__).resolve().parent / "cases"
TIMING_KEYS = ("elapsed_s", "compile_s", "deals_per_s", "threads")


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()                  # click >= 8.2: stderr is always separate


def run(*args: str):
    res = _runner().invoke(cli, list(args), catch_exceptions=False)
    return res


def _one_error_line(res, field: str) -> str:
    """Exit 2, nothing but one ``error:`` line on stderr that names ``field``."""
    assert res.exit_code == 2, (res.exit_code, res.stdout, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("error:"), lines[0]
    assert field in lines[0], (field, lines[0])
    assert "Traceback" not in res.stderr and "Traceback" not in res.stdout
    return lines[0]


# --------------------------------------------------------------------------- help
@pytest.mark.parametrize("args", [[], ["rules"], ["simulate"], ["score"]])
def test_help_of_every_command(args) -> None:
    res = run(*args, "--help")
    assert res.exit_code == 0, res.stderr
    assert "Usage" in res.stdout
    assert res.stderr == ""


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_no_help_text_shows_an_escaped_percent(name) -> None:
    """click does no %-formatting of help texts: a "%%" would print as is."""
    res = run(name, "--help")
    assert res.exit_code == 0 and "%%" not in res.stdout, res.stdout


def test_help_names_the_commands_strategies_and_formats() -> None:
    """The quick start lists advise and match; match names the strategies A and B can be;
    solve points to the hand-record format."""
    top = run("--help").stdout
    for cmd in ("simulate", "score", "advise", "solve", "match", "report"):
        assert f"catchten {cmd} " in top, cmd
    assert "docs/formats.md" in top
    m = " ".join(run("match", "--help").stdout.split())
    assert "A and B are strategies: random, heuristic, pimc[:N]" in m and "ipimc[:N]" in m
    s = " ".join(run("solve", "--help").stdout.split())
    assert 'docs/formats.md "Hand record"' in s and "RECORD..." in s


def test_every_command_is_covered_by_help_test() -> None:
    assert set(cli.commands) >= {"rules", "simulate", "score"}


# --------------------------------------------------------------------------- simulate
def _sim_json(*extra: str) -> dict:
    res = run("simulate", "--deals", "2000", "--seed", "7", "--json", *extra)
    assert res.exit_code == 0, res.stderr
    return json.loads(res.stdout)


def test_simulate_json_has_the_formats_keys() -> None:
    d = _sim_json("--threads", "1")
    for key in ("rules", "policies", "seed", "deals", "ten", "positions"):
        assert key in d, key
    assert d["rules"]["preset"] == "foster" and d["rules"]["players"] == 4
    assert "variants" in d["rules"]
    assert d["seed"] == 7 and d["deals"] == 2000
    ten = d["ten"]
    for key in ("in_play", "dead", "caught", "p_caught", "wilson95"):
        assert key in ten, key
    assert ten["in_play"] + ten["dead"] == 2000
    assert ten["p_caught"] == pytest.approx(ten["caught"] / ten["in_play"])
    lo, hi = ten["wilson95"]
    assert 0 <= lo < ten["p_caught"] < hi <= 1
    assert [p["position"] for p in d["positions"]] == [1, 2, 3, 4]
    for p in d["positions"]:
        for field in ("honours", "card_points", "total", "side_tricks", "seat_tricks"):
            assert set(p[field]) >= {"mean", "se"}, field
            assert p[field]["se"] > 0
        assert p["total"]["mean"] == pytest.approx(p["honours"]["mean"]
                                                   + p["card_points"]["mean"])
    # partners (positions 1 and 3, 2 and 4) share a side's total
    assert d["positions"][0]["total"] == d["positions"][2]["total"]
    # 30 honour points are in play every deal
    assert d["positions"][0]["honours"]["mean"] + d["positions"][1]["honours"]["mean"] == \
        pytest.approx(30)


def test_simulate_json_same_with_one_and_two_threads() -> None:
    one = _sim_json("--threads", "1")
    two = _sim_json("--threads", "2")
    for d in (one, two):
        for k in TIMING_KEYS:
            d.pop(k, None)
    assert one == two
    other = _sim_json("--threads", "1", "--seed", "8")
    assert other["positions"] != one["positions"]


def test_simulate_with_rules_options() -> None:
    d = json.loads(run("simulate", "--deals", "500", "--players", "5", "--variant",
                       "keep_six_of_spades", "--json").stdout)
    assert d["rules"]["players"] == 5 and len(d["positions"]) == 5
    assert d["rules"]["variants"].get("keep_six_of_spades") is True
    assert d["ten"]["dead"] > 0          # the 36th card is sometimes the Ten of trumps


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_simulate_out_writes_one_row_per_deal(tmp_path, suffix) -> None:
    out = tmp_path / f"x.{suffix}"
    res = run("simulate", "--deals", "1500", "--out", str(out), "--json")
    assert res.exit_code == 0, res.stderr
    df = pd.read_csv(out) if suffix == "csv" else pd.read_parquet(out)
    assert len(df) == 1500
    assert list(df["deal"]) == list(range(1500))
    assert list(df["dealer"]) == [i % 4 for i in range(1500)]
    d = json.loads(res.stdout)
    # the file and the summary describe the same deals
    assert df["p1_total"].mean() == pytest.approx(d["positions"][0]["total"]["mean"])


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_out_file_written_over_several_chunks(tmp_path, suffix) -> None:
    """What --out uses, with chunks smaller than the run: one header, every deal once."""
    from catchten_sim import Rules
    from catchten_sim.simulate import DealWriter, simulate
    out = tmp_path / f"chunks.{suffix}"
    w = DealWriter(out, 4)
    try:
        simulate(Rules("foster", 4), "random", n_deals=1000, seed=3, threads=1, chunk=300,
                 on_chunk=w)
    finally:
        w.close()
    df = pd.read_csv(out) if suffix == "csv" else pd.read_parquet(out)
    assert list(df["deal"]) == list(range(1000))
    assert set(df["ten_fate"]) <= {"saved", "caught", "dead", "no_trumps"}


@pytest.mark.parametrize("args,field", [
    (["--players", "9"], "players"),
    (["--variant", "banana"], "variant"),
    (["--variant", "revoke=x"], "variant"),
    (["--deals", "0"], "deals"),
    (["--deals", "abc"], "deals"),
    (["--seed", "-1"], "seed"),
    (["--policy", "nonsense"], "policy"),
    (["--seat-policy", "9=random"], "seat-policy"),
    (["--out", "x.txt"], "out"),
    (["--rules-file", "missing.toml"], "rules-file"),
    (["--rules", "whist"], "rules"),
    (["--threads", "0"], "threads"),
])
def test_simulate_bad_input_one_line_exit_2(args, field, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = run("simulate", "--deals", "100", *args)
    _one_error_line(res, field)
    assert res.stdout == ""
    assert not (tmp_path / "x.txt").exists()


_ODDS_HAND = ["--hand", "JS AS 9S KH QH 7D 8C 9C TC", "--turnup", "7S"]


@pytest.mark.parametrize("command,args,field", [
    ("odds", [*_ODDS_HAND, "--policy", "expert"], "policy"),
    ("odds", [*_ODDS_HAND, "--opponents", "expert"], "opponents"),
    ("simulate", ["--policy", "expert"], "policy"),
    ("simulate", ["--seat-policy", "2=expert"], "seat-policy"),
    ("match", ["random", "expert"], "B"),
    ("report", ["--policy", "expert"], "policy"),
    ("equity", ["--opponents", "expert"], "opponents"),
    ("advise", ["examples/position-lead.json", "--policy", "expert"], "policy"),
])
def test_an_unknown_policy_points_to_the_help_of_the_command_in_use(command, args, field):
    """A user of odds who named an unknown policy is sent to ``catchten odds --help``
    (which lists the policies odds takes), not to match's help as every command was; the
    JSON detail too where it points."""
    line = _one_error_line(run(command, *args), field)
    assert len(line) <= 80, line
    assert line.endswith(f"; see: catchten {command} --help)"), line


@pytest.mark.parametrize("command", ["advise", "solve"])
def test_time_help_says_a_cold_compile_is_not_counted(command) -> None:
    """``--time`` said "counted from the command's start", but a cold first run's compile
    is left out of it (the output says so: "N s of it compiling the engine"): the help
    says that too."""
    text = " ".join(run(command, "--help").stdout.split())
    at = re.search(r"--time [A-Z]+ ", text).start()         # the option, not the prose
    said = text[at:text.index(" --", at + 7)]
    assert "from the command's start" in said and "less a one-time engine compile" in said, \
        said


@pytest.mark.parametrize("args,field", [(["expert", "random"], "A"),
                                        (["random", "expert"], "B"),
                                        (["random,heuristic", "random"], "A")])
def test_match_names_its_strategies_as_its_help_does(args, field) -> None:
    """``catchten match expert heuristic`` said ``error: a: unknown policy``: "a" is the
    Python keyword, read as an article here; the help's usage says ``A B``."""
    line = _one_error_line(run("match", *args), field)
    assert line.startswith(f"error: {field}: "), line
    got = json.loads(run("match", *args, "--json").stdout)
    assert got["field"] == field, got


def test_a_list_given_as_one_policy_points_to_the_help_in_use() -> None:
    """``--policy random,heuristic``: the line has no room for the pointer; the JSON
    detail names simulate's help, not match's."""
    detail = json.loads(run("simulate", "--policy", "random,heuristic", "--json").stdout)
    assert detail["detail"].endswith("; see: catchten simulate --help"), detail


@pytest.mark.parametrize("args,field,why,said", [
    (["--players", "9"], "players", "players out of range", "out of range"),
    (["--variant", "banana"], "variant", "unknown variant", "unknown variant"),
    (["--variant", "revoke=x"], "variant", "bad variant value", "bad value"),
])
def test_simulate_rules_errors_use_formats_words(args, field, why, said) -> None:
    """The JSON ``why`` is the docs/formats.md reason; the line says the field's word once
    (was: ``players: players out of range``)."""
    line = _one_error_line(run("simulate", "--deals", "100", *args), field)
    assert line.startswith(f"error: {field}: {said} (")
    res = run("simulate", "--deals", "100", "--json", *args)
    assert (json.loads(res.stdout)["field"], json.loads(res.stdout)["why"]) == (field, why)


# --------------------------------------------------------------------------- rules
def test_rules_five_players_json_shows_35_card_deck() -> None:
    res = run("rules", "--players", "5", "--json")
    assert res.exit_code == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["players"] == 5
    assert d["deck"]["size"] == 35
    deck = d["deck"]["cards"].split()
    assert len(deck) == 35 and "6S" not in deck and "6C" in deck


def test_rules_text_and_rules_file(tmp_path) -> None:
    f = tmp_path / "r.toml"
    f.write_text('rules = "jaques"\nplayers = 6\n[variants]\nsix_as_three_pairs = true\n')
    res = run("rules", "--rules-file", str(f), "--json")
    assert res.exit_code == 0, res.stderr
    d = json.loads(res.stdout)
    assert (d["preset"], d["players"], len(d["sides"])) == ("jaques", 6, 3)
    res = run("rules", "--players", "8")
    assert res.exit_code == 0 and res.stdout.strip()


def test_rules_contradicting_jaques_switches_one_error_line() -> None:
    # review M2: this printed "six_players=triples, six_as_three_pairs=True" and played pairs
    res = run("rules", "--rules", "jaques", "--players", "6", "--variant", "six_as_three_pairs",
              "--variant", "six_players=triples")
    line = _one_error_line(res, "variant")
    assert "six_players=triples but six_as_three_pairs=true" in line and res.stdout == ""


@pytest.mark.parametrize("args,share", [
    (["--players", "2"], "6 cards per side per set"),
    (["--players", "2", "--variant", "set_scoring=per_deal"], "18 cards per side per deal"),
    (["--players", "4"], "18 cards per side per deal"),
])
def test_rules_text_reads_as_english(args, share) -> None:
    # review Low 6: "per side per each set", "per the whole deal", and "(seed 000)" read
    # as an RNG seed where it names the rules' source text
    res = _runner().invoke(cli, ["rules", *args], terminal_width=300)
    assert res.exit_code == 0, res.stderr
    out = " ".join(res.stdout.split())
    assert share in out and "per each" not in out and "per the whole" not in out
    assert "(rules source 000, docs/rules.md)" in out and "seed" not in out
    d = json.loads(run("rules", "--rules", "jaques", "--json").stdout)
    assert d["first_dealer"] == "highest card deals (rules source 004, docs/rules.md)"


def test_rules_bad_rules_file(tmp_path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text("rules = = foster\n")
    _one_error_line(run("rules", "--rules-file", str(f)), "rules-file")
    f.write_text('rules = "foster"\ncolour = 1\n')
    _one_error_line(run("rules", "--rules-file", str(f)), "colour")


# --------------------------------------------------------------------------- score
def _case_files() -> list[str]:
    out = []
    for group in ("score", "illegal", "games"):
        folder = CASES / group
        if folder.is_dir():
            out += [f"{group}/{p.name[:-len('.json')]}" for p in sorted(folder.glob("*.json"))
                    if not p.name.endswith(".expected.json")]
    return out or ["<missing>"]


def test_cases_folder_present() -> None:
    assert CASES.is_dir(), f"worked cases not found at {CASES} (tests/cases)"
    assert _case_files() != ["<missing>"]


@pytest.mark.parametrize("name", _case_files())
def test_score_every_worked_case(name) -> None:
    assert name != "<missing>", f"no worked cases under {CASES}"
    group, stem = name.split("/")
    path = CASES / group / f"{stem}.json"
    expected = json.loads((CASES / group / f"{stem}.expected.json").read_text())
    res = run("score", str(path), "--json")
    if expected.get("kind") == "error":
        assert res.exit_code == 2, res.stdout
        err = json.loads(res.stdout)
        assert err["kind"] == "error"
        assert (err["field"], err["why"]) == (expected["field"], expected["why"])
        plain = run("score", str(path))
        line = _one_error_line(plain, expected["field"])
        said = said_why(expected["field"], expected["why"])     # the field's word once
        assert line.startswith(f"error: {expected['field']}: {said}")
        return
    assert res.exit_code == 0, res.stderr
    got = json.loads(res.stdout)
    if expected.get("kind") == "revoke":
        for key in ("seat", "trick", "card", "penalty"):
            assert got["revoke"][key] == expected["revoke"][key]
        assert [s["total"] for s in got["sides"]] == \
            [s["total"] for s in expected["score"]["sides"]]
    elif group == "games":
        for key in ("winner", "how", "step", "hand", "running"):
            assert got.get(key) == expected.get(key), key
    else:
        assert got["finished"] == expected["finished"]
        assert [s["total"] for s in got["sides"]] == [s["total"] for s in expected["sides"]]
        for k in ("holder", "taken_by", "caught"):
            assert got["ten"][k] == expected["ten"][k], k
    text = run("score", str(path))   # the text report works too
    assert text.exit_code == 0 and text.stdout.strip() and text.stderr == ""


def test_score_missing_file(tmp_path) -> None:
    _one_error_line(run("score", str(tmp_path / "nope.json")), "record")


def test_score_not_json(tmp_path) -> None:
    f = tmp_path / "x.json"
    f.write_text("this is { not json")
    _one_error_line(run("score", str(f)), "record")
    res = run("score", str(f), "--json")
    assert res.exit_code == 2
    assert json.loads(res.stdout)["field"] == "record"


def test_score_empty_json_object(tmp_path) -> None:
    f = tmp_path / "empty.json"
    f.write_text("{}")
    res = run("score", str(f))
    assert res.exit_code == 2
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), res.stderr
    res = run("score", str(f), "--json")
    assert res.exit_code == 2
    err = json.loads(res.stdout)
    assert err["kind"] == "error" and err["field"] and err["why"]


def test_score_json_array_is_refused(tmp_path) -> None:
    f = tmp_path / "arr.json"
    f.write_text("[1, 2]")
    _one_error_line(run("score", str(f)), "record")


def test_deals_beyond_the_limit_are_refused_in_one_line():
    from click.testing import CliRunner
    from catchten_sim.cli import cli
    r = CliRunner().invoke(cli, ["simulate", "--deals", str(10 ** 20)])
    assert r.exit_code == 2
    assert r.stderr.strip().count("\n") == 0 and r.stderr.startswith("error: deals")


def test_policy_label_names_seats_when_a_seat_policy_breaks_the_sides():
    from catchten_sim import Rules
    from catchten_sim.policies import seat_policies
    from catchten_sim.simulate import simulate
    rules = Rules("foster", 4)
    res = simulate(rules, seat_policies(rules, "heuristic", None, {2: "random"}), n_deals=500)
    assert res.policy_label() == ("seat 0 heuristic, seat 1 heuristic, seat 2 random, "
                                  "seat 3 heuristic")
    res = simulate(rules, seat_policies(rules, "heuristic", "random"), n_deals=500)
    assert res.policy_label() == "heuristic (side 0) vs random"


@pytest.mark.parametrize("body,field", [
    ('players = "4"', "players"),
    ('[variants]\ntarget = "31"', "variants.target"),
    ('[variants]\nkeep_six_of_spades = "yes"', "variants.keep_six_of_spades"),
    ("[variants]\nkeep_six_of_spades = 1", "variants.keep_six_of_spades"),
    ("rules = 4", "rules"),
])
def test_rules_file_values_must_have_their_toml_type(tmp_path, body, field) -> None:
    """A TOML rules file says what it means: a string where a whole number or true/false
    is expected is one error line naming the field (the -V text options are parsed)."""
    f = tmp_path / "r.toml"
    f.write_text(body + "\n")
    line = _one_error_line(run("rules", "--rules-file", str(f)), field + ":")
    assert "write" in line
    f.write_text('rules = "foster"\nplayers = 4\n[variants]\ntarget = 31\n'
                 'keep_six_of_spades = true\ncard_points = "on"\n')
    assert run("rules", "--rules-file", str(f), "--json").exit_code == 0


def test_text_output_width_follows_columns(monkeypatch) -> None:
    """Piped output honours COLUMNS; without it every line fits 80 columns (the rules
    table wraps its two long values, deck and switches, in their cells) and no line ends
    in a space."""
    monkeypatch.delenv("COLUMNS", raising=False)
    wide = run("rules").stdout.splitlines()
    assert max(len(ln) for ln in wide) <= 80
    assert all(ln == ln.rstrip() for ln in wide)
    at = next(i for i, ln in enumerate(wide) if "│ deck" in ln)
    end = next(i for i in range(at + 1, len(wide)) if wide[i].split("│")[1].strip())
    cells = " ".join(ln.split("│")[2] for ln in wide[at:end])
    assert cells.split() == ["36", "cards:"] + [r + s for s in "SHDC" for r in "6789TJQKA"]
    monkeypatch.setenv("COLUMNS", "60")
    narrow = run("rules").stdout.splitlines()
    assert max(len(ln) for ln in narrow) <= 60 and len(narrow) > len(wide)


@pytest.mark.parametrize("args, must", [
    # the widest text there is: dd with inference (the MODEL line, once 277 columns)
    (["advise", "examples/position-lead.json", "--evaluator", "dd", "--infer", "heuristic",
      "--samples", "16", "--no-early-stop", "--threads", "1"], "MODEL:"),
    (["match", "heuristic", "random", "--deals", "16", "--pilot", "0", "--threads", "1"],
     "standard error:"),
    (["advise", "examples/position-lead.json", "--samples", "100", "--explain", "1",
      "--threads", "1"], "in words:"),
])
def test_piped_text_fits_80_columns_without_trailing_spaces(monkeypatch, args, must):
    """Every line the widest commands print to a pipe (no COLUMNS) fits 80 columns and
    ends in no space (scripts/check_text_width.py runs every command)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    res = run(*args)
    assert res.exit_code == 0, res.stderr
    assert must in res.stdout
    lines = (res.stdout + res.stderr).splitlines()
    assert max(len(ln) for ln in lines) <= 80, max(lines, key=len)
    assert [ln for ln in lines if ln != ln.rstrip()] == []


def test_advise_takes_a_declared_trump_as_a_flag():
    """jaques ``dealer_declares`` (docs/rules.md §4) has no turn-up: the position's
    ``trump`` field as ``--trump``; the same position as JSON gives the same answer."""
    base = ["advise", "--rules", "jaques", "-V", "dealer_declares", "--players", "4",
            "--dealer", "3", "--seat", "0", "--hand", "JS AS 9S KH QH 7D 8C 9C TC",
            "--play", "", "--samples", "200", "--no-progress", "--json"]
    flags = run(*base, "--trump", "NT")
    assert flags.exit_code == 0, flags.stderr
    got = json.loads(flags.stdout)
    assert got["position"]["trump"] == "NT" and got["position"]["turnup"] is None
    from catchten_sim.position import Position
    assert Position.from_dict(got["position"]).to_dict() == got["position"]   # round trip
    base = base[:-1]                       # errors: the one stderr line, not JSON
    missing = run(*base)                  # dealer_declares: the trump is what is missing
    line = _one_error_line(missing, "trump")
    assert "missing" in line and "NT" in line
    given = run(*base, "--turnup", "7S", "--trump", "S")     # a turn-up is not the rules'
    assert "no turn-up with dealer_declares" in _one_error_line(given, "turnup")
    bad = run(*base, "--trump", "X")
    _one_error_line(bad, "trump")
    # without dealer_declares a declared trump is not the rules' way: the turn-up is needed
    plain = [a for a in base if a not in ("-V", "dealer_declares")]
    _one_error_line(run(*plain, "--trump", "S"), "turnup")


def test_advise_at_no_trumps_shows_no_ten_of_trumps_table():
    """jaques dealer_declares at no trumps: there is no Ten of trumps, so advise leaves its
    table out (and jaques has no card points either); with trumps the table is there."""
    base = ["advise", "--rules", "jaques", "-V", "dealer_declares", "--players", "4",
            "--dealer", "3", "--seat", "0", "--hand", "JS AS 9S KH QH 7D 8C 9C TC",
            "--play", "", "--samples", "100", "--no-progress"]
    nt = run(*base, "--trump", "NT")
    assert nt.exit_code == 0, nt.stderr
    assert "trumps none" in nt.stdout and "Ten of trumps" not in nt.stdout
    spades = run(*base, "--trump", "S")
    assert spades.exit_code == 0, spades.stderr
    assert "The Ten of trumps, per card:" in spades.stdout


# ------------------------------------------------- click's errors in the project's words
@pytest.mark.parametrize("args, line", [
    (["advise", "X", "--samples", "abc"],
     'error: samples: bad option value ("abc" is not a whole number)'),
    (["simulate", "--deals", "2.5"], 'error: deals: bad option value ("2.5" is not a whole '
                                     'number)'),
    (["simulate", "--time", "soon"], 'error: time: bad option value ("soon" is not a number)'),
    (["solve", "X", "--max-nodes", "0"],
     "error: max-nodes: bad option value (0 is out of range: 1 or more)"),
    (["advise", "X", "--objective", "point"],
     "error: objective: bad option value (\"point\"; did you mean 'points'?)"),
    (["equity", "--method", "bogus"],
     'error: method: bad option value ("bogus"; known: exact, rollouts)'),
    (["simulate", "--dael", "3"], "error: dael: unknown option (did you mean '--deals'?)"),
    (["simulate", "--bogus"], "error: bogus: unknown option (see: catchten simulate --help)"),
    (["simulat"], "error: simulat: unknown command (did you mean 'simulate'?)"),
    (["simulate", "--deals"], "error: deals: bad option value (--deals needs a value)"),
])
def test_click_errors_are_the_projects_one_line(args, line):
    """click said ``Invalid value for '--samples': 'abc' is not a valid integer.`` and
    offered ``--games`` and ``--help`` for ``--dael``; each is FIELD: WHY (detail) now,
    exit 2, in 80 columns. (Each a few ms: click refuses them before any work.)"""
    res = run(*args)
    assert res.exit_code == 2, res.output
    assert res.stderr.splitlines() == [line]
    assert len(line) <= 80


def test_click_errors_as_json_name_the_flag():
    res = run("simulate", "--json", "--time", "soon")
    assert res.exit_code == 2
    assert json.loads(res.stdout) == {"kind": "error", "field": "time",
                                      "why": "bad option value",
                                      "detail": '"soon" is not a number'}


@pytest.mark.parametrize("args", [["simulate", "--variant", "bogus"],
                                  ["simulate", "--variant", "color=1"],
                                  ["simulate", "--players", "9"],
                                  ["rules", "-r", "jaques", "-V", "deck52", "-n", "6"],
                                  ["simulate", "--variant", "exposed_trump=maybe"]])
def test_rules_errors_fit_80_columns(args):
    """``--variant bogus`` listed every switch (300 columns), ``--players 9`` every
    allowed count (91)."""
    res = run(*args)
    assert res.exit_code == 2
    (line,) = res.stderr.splitlines()
    assert len(line) <= 80, line


def test_paired_matches_bad_input_is_one_short_line(tmp_path, capsys):
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    try:
        import paired_matches
    finally:
        sys.path.pop(0)
    for argv in ([str(tmp_path / "nope"), str(tmp_path)], []):
        with pytest.raises(SystemExit) as e:
            paired_matches.main(argv)
        assert e.value.code == 2
        (line,) = capsys.readouterr().err.splitlines()
        assert line.startswith("error: ") and len(line.replace(str(tmp_path), "T")) <= 80, line
