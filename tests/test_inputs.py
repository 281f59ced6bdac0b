"""Strict inputs (issue 13 §2): unknown keys, non-UTF-8 files, a bad dealer, no "None".

Records and positions are built here from a simulated deal (no ../shared data needed).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from catchten_sim.cli import cli
from catchten_sim.errors import CatchTenError, check_keys
from catchten_sim.play import deal, play
from catchten_sim.position import Position
from catchten_sim.records import score_any, score_game, score_record
from catchten_sim.rules import Rules


def _record(players: int = 4, n_played: int | None = None) -> dict:
    pd = play(deal(Rules("foster", players), seed=3, index=1), "random")
    rec = pd.to_record()
    if n_played is not None:
        rec["play"] = rec["play"][:n_played]
    return rec


def _position() -> dict:
    rec = _record(n_played=0)
    dealer = rec["dealer"]
    seat = (dealer + 1) % 4
    return {"rules": "foster", "players": 4, "dealer": dealer, "seat": seat,
            "hand": rec["hands"][seat], "turnup": rec["turnup"], "play": [], "score": [3, 5]}


def _error(fn, *args) -> CatchTenError:
    with pytest.raises(CatchTenError) as info:
        fn(*args)
    return info.value


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()


def _cli(*args: str):
    return _runner().invoke(cli, list(args), catch_exceptions=False)


def _one_line(res) -> str:
    assert res.exit_code == 2, (res.exit_code, res.stdout, res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), res.stderr
    assert "Traceback" not in res.stderr + res.stdout
    return lines[0]


# --------------------------------------------------------------------------- the helper
def test_check_keys_names_the_key_and_the_nearest_known_key() -> None:
    e = _error(check_keys, {"rules": "foster", "variant": {}}, ("rules", "variants"))
    assert (e.field, e.why) == ("variant", "unknown field")
    assert e.detail == "did you mean 'variants'?"
    assert e.line() == "variant: unknown field (did you mean 'variants'?)"


def test_check_keys_without_a_near_key_lists_the_known_ones() -> None:
    e = _error(check_keys, {"zzz": 1}, ("rules", "players"), "hands[2]")
    assert e.detail == "hands[2]: known: players, rules"


def test_check_keys_accepts_known_keys() -> None:
    check_keys({"rules": 1}, ("rules", "players"))


# --------------------------------------------------------------------------- records
def test_hand_record_with_variant_for_variants_is_refused() -> None:
    rec = _record()
    rec["variant"] = {"target": 31}
    e = _error(score_record, rec)
    assert (e.field, e.why) == ("variant", "unknown field")
    assert "did you mean 'variants'?" in e.detail


@pytest.mark.parametrize("key,near", [("plays", "play"), ("turnups", "turnup"),
                                      ("dealr", "dealer"), ("hand", "hands")])
def test_every_misspelt_record_key_is_refused(key, near) -> None:
    rec = _record()
    rec[key] = rec.get(near, [])
    e = _error(score_any, rec)
    assert e.field == key and f"did you mean '{near}'?" in e.detail


def test_game_record_unknown_keys_at_the_top_and_in_a_hand() -> None:
    hand = _record()
    game = {"rules": "foster", "players": 4, "hands": [hand], "target": 31}
    e = _error(score_game, game)
    assert e.field == "target" and e.why == "unknown field"
    game = {"rules": "foster", "players": 4, "hands": [dict(hand, turnp="7S")]}
    e = _error(score_game, game)
    assert e.field == "turnp" and e.detail == "hands[0]: did you mean 'turnup'?"


def test_cli_score_unknown_key_one_line_and_json(tmp_path: Path) -> None:
    rec = _record()
    rec["variant"] = {}
    p = tmp_path / "r.json"
    p.write_text(json.dumps(rec))
    line = _one_line(_cli("score", str(p)))
    assert line == "error: variant: unknown field (did you mean 'variants'?)"
    res = _cli("score", str(p), "--json")
    assert res.exit_code == 2
    assert json.loads(res.stdout) == {"kind": "error", "field": "variant",
                                      "why": "unknown field",
                                      "detail": "did you mean 'variants'?"}


@pytest.mark.parametrize("dealer", [4, -1, "3", True, 2.5])
def test_bad_dealer_says_dealer_out_of_range(dealer) -> None:
    rec = _record()
    rec["dealer"] = dealer
    e = _error(score_record, rec)
    assert (e.field, e.why) == ("dealer", "dealer out of range")
    assert "None" not in e.line()


@pytest.mark.parametrize("kind, field, why", [
    ("record", "players", "players out of range"), ("record", "dealer", "dealer out of range"),
    ("record", "hands", "wrong number of hands"),
    ("position", "players", "missing"), ("position", "dealer", "missing"),
    ("position", "seat", "missing")])
def test_a_missing_field_says_missing(tmp_path, kind, field, why) -> None:
    """A field left out of a position is said as missing (it was "dealer out of range
    (dealer missing ...)"): one line naming the field, exit 2, the same in --json. A
    record keeps the reasons ../shared/FORMATS.md lists for records ("players out of
    range" for a missing players), its detail saying missing."""
    data = _record() if kind == "record" else _position()
    del data[field]
    path = tmp_path / f"{kind}.json"
    path.write_text(json.dumps(data))
    command = "solve" if kind == "record" else "advise"
    line = _one_line(_cli(command, str(path)))
    assert line.startswith(f"error: {field}: "), line
    assert "missing" in line, line
    if kind == "position":
        assert "out of range" not in line, line
    res = _cli(command, str(path), "--json")
    assert res.exit_code == 2
    got = json.loads(res.stdout)
    assert (got["field"], got["why"]) == (field, why), got


def _bad_values():
    yield from (None, {}, 7, "x", True, [None])


@pytest.mark.parametrize("field", ["rules", "variants", "players", "dealer", "hands",
                                   "turnup", "dead", "play"])
def test_no_record_message_prints_none(field) -> None:
    for value in list(_bad_values()) + ["missing"]:
        rec = _record(n_played=8)
        if value == "missing":
            rec.pop(field, None)
        else:
            rec[field] = value
        try:
            score_any(rec)
        except CatchTenError as e:
            assert "None" not in e.line() and "NoneType" not in e.line(), (field, value, e)
        rec = _record(n_played=8)
        rec["hands"][1][2] = value if value != "missing" else None
        rec["play"][3] = value if value != "missing" else None
        e = _error(score_any, rec)
        assert "None" not in e.line(), (field, value, e.line())


def test_null_record_and_wrong_top_level_say_so() -> None:
    for data in (None, [], "x"):
        e = _error(score_record, data)
        assert e.field == "record" and "None" not in e.line()


# --------------------------------------------------------------------------- files
def test_non_utf8_record_and_position_files_one_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_bytes(b'{"players": 4, "rules": "f\xf6ster"}')
    line = _one_line(_cli("score", str(p)))
    assert "record: not UTF-8 text" in line and "0xf6" in line
    line = _one_line(_cli("advise", str(p)))
    assert "position: not UTF-8 text" in line


def test_record_file_errors_one_line(tmp_path: Path) -> None:
    assert "file not found" in _one_line(_cli("score", str(tmp_path / "nope.json")))
    p = tmp_path / "list.json"
    p.write_text("[1, 2]")
    assert "not an object" in _one_line(_cli("score", str(p))) or \
        "not a record" in _one_line(_cli("score", str(p)))
    p.write_text("null")
    line = _one_line(_cli("score", str(p)))
    assert "None" not in line


def test_position_from_stdin_bad_json_one_line() -> None:
    res = _runner().invoke(cli, ["advise", "-"], input="{not json", catch_exceptions=False)
    assert "position: not JSON" in _one_line(res)


# --------------------------------------------------------------------------- positions
def test_position_scores_for_score_is_refused() -> None:
    pos = _position()
    Position.from_dict(pos)   # the valid one is accepted
    pos["scores"] = pos.pop("score")
    e = _error(Position.from_dict, pos)
    assert (e.field, e.why, e.detail) == ("scores", "unknown field", "did you mean 'score'?")


@pytest.mark.parametrize("field, value, shown", [
    ("hand", "JS AS 9S", "hand is a string"), ("hand", [11, 24], "hand[0]=11"),
    ("play", "JS", "play is a string"), ("dead", [3], "dead[0]=3"),
    ("hand", {"JS": 1}, "hand is an object")])
def test_a_position_s_cards_are_a_list_of_card_names(field, value, shown) -> None:
    """As in a record (docs/formats.md): a string of cards or card codes is refused as a
    malformed card, not read another way."""
    pos = _position()
    pos[field] = value
    e = _error(Position.from_dict, pos)
    assert (e.field, e.why) == (field, "malformed card") and shown in e.detail


def test_cli_advise_position_unknown_key(tmp_path: Path) -> None:
    pos = _position()
    pos["variant"] = {}
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(pos))
    assert _one_line(_cli("advise", str(p))) == \
        "error: variant: unknown field (did you mean 'variants'?)"


@pytest.mark.parametrize("field", ["rules", "players", "dealer", "seat", "hand", "turnup",
                                   "play", "dead", "score", "trump"])
def test_no_position_message_prints_none(field) -> None:
    for value in list(_bad_values()) + ["missing"]:
        pos = _position()
        if value == "missing":
            pos.pop(field, None)
        else:
            pos[field] = value
        try:
            Position.from_dict(pos)
        except CatchTenError as e:
            assert "None" not in e.line() and "NoneType" not in e.line(), (field, value, e)


def test_a_finished_deal_is_named_as_such_not_as_too_long_a_play():
    from catchten_sim.cards import format_card
    r = Rules("foster", 4)
    pd = play(deal(r, seed=1, index=0), "heuristic")
    raw = {"dealer": pd.deal.dealer, "seat": 0, "hand": [],
           "turnup": format_card(pd.deal.turnup), "play": [format_card(c) for c in pd.play]}
    with pytest.raises(CatchTenError) as e:
        Position.from_dict(raw, r)
    assert (e.value.field, e.value.why) == ("play", "the deal is finished")


@pytest.mark.parametrize("hands", ["x", [1, 2]])
def test_solve_names_a_malformed_hands_field_not_the_kind_of_record(tmp_path, hands):
    """A record with no dealer and a malformed ``hands`` is not called a game record by
    ``solve`` (review of issue 8): the one error line names ``hands``, exit 2."""
    f = tmp_path / "r.json"
    f.write_text(json.dumps({"players": 4, "hands": hands}))
    res = _runner().invoke(cli, ["solve", str(f)])
    assert res.exit_code == 2
    assert res.stderr.startswith("error: hands: ") and res.stderr.count("\n") == 1
    f.write_text(json.dumps({"players": 4, "hands": [{"dealer": 0}]}))
    res = _runner().invoke(cli, ["solve", str(f)])
    assert res.exit_code == 2 and res.stderr.startswith("error: record: not a hand record")


# ---------------------------------------- flags that used to be ignored or to crash


@pytest.mark.parametrize("flags, field", [
    (["--players", "5"], "players"), (["--rules", "jaques"], "rules"),
    (["-V", "must_trump"], "variant"), (["--rules-file", "r.toml"], "rules-file")])
def test_advise_refuses_rules_flags_beside_a_position_file(tmp_path, flags, field) -> None:
    # the file carries its rules: a flag beside it was silently ignored
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(_position()))
    line = _one_line(_cli("advise", str(p), *flags))
    assert line.startswith(f"error: {field}: file and flags"), line


def test_a_score_flag_beside_a_position_file_overrides_its_score(tmp_path) -> None:
    """--score is the game's state, not the deal's: it goes with a position file (it was
    refused as "file and flags") and replaces the file's "score"."""
    import click

    from catchten_sim.cli import advise_cmd
    from catchten_sim.cli_kit import load_position

    def loaded(path, score):            # as advise reads it: no other flag given
        with click.Context(advise_cmd).scope():
            return load_position(str(path), *(None,) * 4, *(None,) * 5, score, None, None)
    pos = _position()                         # its score: [3, 5]
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(pos))
    got = loaded(p, "10 20")
    assert got.score == (10, 20)
    assert got.to_dict() == {**Position.from_dict(pos).to_dict(), "score": [10, 20]}
    assert loaded(p, None).score == (3, 5)          # no flag: the file's
    del pos["score"]
    p.write_text(json.dumps(pos))
    assert loaded(p, "10,20").score == (10, 20)
    # a bad --score is the flag's own fault, said as without a file
    line = _one_line(_cli("advise", str(p), "--score", "ten 20"))
    assert line.startswith("error: score: bad score ("), line
    assert "--score" in _cli("advise", "--help").stdout.split("--trump")[0]
    assert "overrides" in " ".join(_cli("advise", "--help").stdout.split())


@pytest.mark.parametrize("flags, named", [
    (["--hand", "JS"], "--hand"), (["--seat", "1", "--play", ""], "--seat, --play"),
    (["--turnup", "7S", "--score", "1 2"], "--turnup"),
    (["--dealer", "0", "--dead", "", "--trump", "S"], "--dealer, --dead, --trump")])
def test_position_flags_beside_a_position_file_are_refused_by_name(tmp_path, flags,
                                                                   named) -> None:
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(_position()))
    line = _one_line(_cli("advise", str(p), *flags))
    assert line.startswith(f"error: position: file and flags ({named}: "), line


@pytest.mark.parametrize("n", ["0", "101", "99999999999999999999999"])
def test_advise_explain_out_of_range(tmp_path, n) -> None:
    # 10**23 used to reach numpy ("Maximum allowed dimension exceeded", exit 1)
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(_position()))
    line = _one_line(_cli("advise", str(p), f"--explain={n}", "--samples", "10"))
    assert line.startswith("error: explain: "), line


@pytest.mark.parametrize("args", [["simulate", "--deals", "10", "--out", ""],
                                  ["simulate", "--deals", "10", "--run-dir", " "],
                                  ["equity", "--out", ""], ["score", ""]])
def test_an_empty_file_name_is_refused(args) -> None:
    # simulate --out "" wrote nothing and said nothing
    assert "empty name" in _one_line(_cli(*args))


@pytest.mark.parametrize("args, field", [
    (["--threads", "-1"], "threads"), (["--threads", "99999"], "threads"),
    (["--workers", "0"], "workers"), (["--chunk", "0"], "chunk"),
    (["--scheduler", ""], "scheduler")])
def test_equity_checks_its_run_options_even_when_the_table_is_cached(tmp_path, monkeypatch,
                                                                    args, field) -> None:
    # a cached table used to be returned before the options were looked at
    monkeypatch.setenv("CATCHTEN_CACHE_DIR", str(tmp_path))
    base = ["equity", "--players", "2", "--hands", "2000", "--no-progress"]
    assert _cli(*base).exit_code == 0            # now the table is in the cache
    assert _one_line(_cli(*base, *args)).startswith(f"error: {field}: "), args


@pytest.mark.parametrize("args, field", [
    (["simulate", "--deals", "10", "--first-dealer", "abc"], "first-dealer"),
    (["simulate", "--deals", "10", "--first-dealer", "random"], "first-dealer"),
    (["simulate", "--deals", "10", "--force"], "force"),
    (["match", "random", "heuristic", "--deals", "10", "--force"], "force")])
def test_a_flag_that_would_do_nothing_is_refused(args, field) -> None:
    # --first-dealer without --games and --force without --report were silently ignored
    assert _one_line(_cli(*args)).startswith(f"error: {field}: only with --"), args


def test_deals_with_games_and_run_flags_with_from_are_refused(tmp_path) -> None:
    # simulate --games N --deals 0 played N games; report --from DIR --seed 7 reported the
    # run directory's seed 1
    assert _one_line(_cli("simulate", "--games", "10", "--deals", "0")).startswith(
        "error: deals: not with --games")
    run = tmp_path / "run"
    assert _cli("simulate", "--deals", "1000", "--run-dir", str(run), "--no-progress",
                "--json").exit_code == 0
    for flag, value in (("--seed", "7"), ("--policy", "random"), ("--deals", "500"),
                        ("--opponents", "random"), ("--rules", "jaques"), ("--players", "5"),
                        ("--variant", "must_trump")):
        line = _one_line(_cli("report", "--from", str(run), flag, value))
        assert line.startswith(f"error: {flag[2:]}: not with --from"), line
    # the run directory's own errors name --from
    assert _one_line(_cli("report", "--from", str(tmp_path / "none"))).startswith(
        "error: from: ")


def test_a_switch_given_twice_with_two_values_and_switch_flags_with_the_table() -> None:
    line = _one_line(_cli("rules", "-V", "must_trump", "-V", "must_trump=false"))
    assert line == "error: variant: given twice (must_trump=true and must_trump=false)"
    assert _cli("rules", "-V", "target=31", "-V", "target=31").exit_code == 0
    for args, field in ((["-V", "target=5"], "variant"), (["-n", "5"], "players")):
        line = _one_line(_cli("rules", "--switches", *args))
        assert line.startswith(f"error: {field}: not with --switches"), line
    assert _cli("rules", "--switches", "-r", "jaques").exit_code == 0


def test_a_seat_given_two_policies_is_refused() -> None:
    # the last --seat-policy for a seat used to win silently
    line = _one_line(_cli("simulate", "--deals", "10", "--seat-policy", "1=random",
                          "--seat-policy", "1=heuristic"))
    assert line.startswith("error: seat-policy: given twice"), line
    assert _cli("simulate", "--deals", "10", "--no-progress", "--seat-policy", "1=random",
                "--seat-policy", "1=random").exit_code == 0


# ------------------------------------------------------- suggestions and plain words
@pytest.mark.parametrize("key, near", [("trumsp", "trump"), ("dealr", "dealer"),
                                       ("playrs", "players"), ("Seat", "seat")])
def test_a_typo_of_a_position_key_names_the_key(key, near):
    data = {**_position(), key: 1}
    with pytest.raises(CatchTenError) as e:
        Position.from_dict(data)
    assert (e.value.field, e.value.why) == (key, "unknown field")
    assert e.value.detail == f"did you mean '{near}'?"


@pytest.mark.parametrize("key", ["color", "zzzzzzzzzz", "bogus"])
def test_an_unrelated_word_gets_no_suggestion_and_a_short_line(key):
    """``color`` was told "did you mean 'score'?" (difflib's default cutoff, 0.6); a long
    list of the known keys made the line 120 columns: a pointer instead."""
    with pytest.raises(CatchTenError) as e:
        Position.from_dict({**_position(), key: 1})
    assert "did you mean" not in e.value.detail
    assert e.value.detail == "see docs/formats.md"
    assert len(f"error: {e.value.line()}") <= 80


@pytest.mark.parametrize("name, near", [("color", None), ("bogus", None),
                                        ("must_trumps", "must_trump"), ("targte", "target")])
def test_unknown_switch_suggests_only_a_near_switch_in_80_columns(name, near):
    """``--variant bogus`` listed all 18 switches: a 300-column line."""
    with pytest.raises(CatchTenError) as e:
        Rules("foster", 4, {name: True})
    line = f"error: {e.value.line()}"
    assert len(line) <= 80, line
    if near is None:
        assert "did you mean" not in line and "catchten rules --switches" in line
    else:
        assert f"did you mean '{near}'?" in line


def test_close_match_is_the_one_suggestion_rule():
    from catchten_sim.errors import close_match
    assert close_match("color", ["score", "seat", "dealer"]) is None
    assert close_match("heuristc", ["random", "heuristic"]) == "heuristic"
    assert close_match("DEALR", ["dealer"]) == "dealer"


@pytest.mark.parametrize("value, words", [(True, "the boolean true"),
                                          (None, "no value"),
                                          ("5", 'the text "5"'), (2.5, "2.5")])
def test_api_whole_number_errors_say_the_value_in_plain_words(value, words):
    """``samples=True`` said ``samples=True``, a Python spelling (``None``, ``'5'`` too)."""
    from catchten_sim.checks import check_count
    with pytest.raises(CatchTenError) as e:
        check_count("samples", value, 1)
    assert (e.value.field, e.value.why) == ("samples", "not a whole number")
    assert e.value.detail == f"got {words}"
    assert "True" not in e.value.line() and "None" not in e.value.line()


def test_api_number_errors_never_show_numpy_or_python_spellings():
    import numpy as np
    from catchten_sim.checks import check_number
    for value in (np.float64(-1.0), True, None):
        with pytest.raises(CatchTenError) as e:
            check_number("time", value, 0.0, what="seconds")
        line = e.value.line()
        assert not any(w in line for w in ("np.", "True", "None", "<class", "'")), line


@pytest.mark.parametrize("call", ["simulate", "equity_table", "odds", "deal"])
def test_api_functions_refuse_a_missing_rules_in_words(call):
    """``simulate(None)`` raised AttributeError: 'NoneType' object has no attribute
    'players' (``odds`` said ``None: pass Rules(...)``). (A few ms each: refused first.)"""
    import catchten_sim
    fn = getattr(catchten_sim, call)
    args = (None, "JS AS KS 6H 7H 8D 9D TC QC", "6S") if call == "odds" else (None,)
    kw = {"seat": 0, "dealer": 3} if call == "odds" else {}
    with pytest.raises(CatchTenError) as e:
        fn(*args, **kw)
    assert (e.value.field, e.value.why) == ("rules", "not a Rules object")
    assert "None" not in e.value.line() and "got no value" in e.value.detail


@pytest.mark.parametrize("bad", [None, 5])
@pytest.mark.parametrize("call", ["simulate", "advise", "odds", "match", "solve", "deal",
                                  "play", "equity_table", "PlayState"])
def test_every_public_function_refuses_a_wrong_first_argument_in_one_line(call, bad):
    """``match(None, ...)`` raised AttributeError ('NoneType' object has no attribute
    'players'), ``advise(None)`` said ``not NoneType``: every public function of the
    package (catchten_sim.FUNCTIONS) refuses a missing or wrong-kind first argument with
    one line naming the argument, the value in plain words, and a CatchTenError that is a
    TypeError where the argument is of the wrong kind. (Each refused before any work.)"""
    import catchten_sim
    assert set(catchten_sim.FUNCTIONS) == {"simulate", "advise", "odds", "match", "solve",
                                           "deal", "play", "equity_table", "PlayState"}
    fn = getattr(catchten_sim, call)
    more = {"odds": ("KH", "7S"), "match": ("heuristic", "random"), "PlayState": (0, [[0]])}
    kw = {"seat": 0, "dealer": 0} if call == "odds" else {}
    with pytest.raises(CatchTenError) as e:
        fn(bad, *more.get(call, ()), **kw)
    line = f"error: {e.value.line()}"
    first = {"advise": "position", "solve": "record", "play": "deal"}.get(call, "rules")
    assert e.value.field == first and line.startswith(f"error: {first}: "), line
    assert "\n" not in line and len(line) <= 80, line
    assert "None" not in line, line
    assert isinstance(e.value, TypeError) or call == "solve", type(e.value).__mro__


def test_deal_refuses_a_boolean_seed_and_a_missing_index():
    """``deal(rules, seed=True)`` dealt with seed 1; ``index=None`` raised TypeError."""
    from catchten_sim import deal as deal_fn
    for kw, field in (({"seed": True}, "seed"), ({"index": None}, "index")):
        with pytest.raises(CatchTenError) as e:
            deal_fn(Rules(), **kw)
        assert (e.value.field, e.value.why) == (field, "not a whole number")
