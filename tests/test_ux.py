"""What a user meets: bad inputs on every command, 80-column tables, Ctrl-C keeping files
honest, report directories, the compile notice and the Python API's types."""
from __future__ import annotations

import importlib
import json
import os
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from catchten_sim import Rules
from catchten_sim.cli import cli

from _text import messages

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
FORBIDDEN = ("internal error", "Traceback", "NoneType", "None", "1 deals")


def _invoke(args, **kw):
    return CliRunner().invoke(cli, [str(a) for a in args], **kw)


def _clean(res) -> str:
    out = (res.stderr or "") + (res.stdout or "")
    for word in FORBIDDEN:
        assert word not in out, f"{word!r} in output: {out[-400:]}"
    return out



@pytest.fixture
def files(tmp_path):
    f = {
        "nonutf8": tmp_path / "bad.json", "nonutf8_toml": tmp_path / "bad.toml",
        "null": tmp_path / "null.json", "list": tmp_path / "list.json",
        "full": tmp_path / "full", "missing": tmp_path / "no" / "such" / "dir",
    }
    f["nonutf8"].write_bytes(b'{"players": \xff}')
    f["nonutf8_toml"].write_bytes(b'rules = "foster"\nplayers = \xff\n')
    f["null"].write_text("null")
    f["list"].write_text("[]")
    f["full"].mkdir()
    (f["full"] / "keep.txt").write_text("mine")
    return f


# --------------------------------------------------------------------------- bad inputs
BAD = [
    (["simulate", "--rules-file", "{nonutf8_toml}"], "UTF-8"),
    (["score", "{nonutf8}"], "UTF-8"),
    (["advise", "{nonutf8}"], "UTF-8"),
    (["score", "{null}"], "null"),
    (["advise", "{null}"], "null"),
    (["advise", "{list}"], "not an object"),
    (["report", "--deals", "1"], "deals"),
    (["report", "--deals", "500", "--sweep-deals", "1"], "sweep-deals"),
    (["equity", "--hands", "10000000000000"], "hands"),
    (["report", "--deals", "200", "--out", "{missing}"], "does not exist"),
    (["simulate", "--deals", "200", "--out", "{missing}/x.csv"], "does not exist"),
    (["simulate", "--deals", "200", "--report", "{full}"], "not empty"),
    (["report", "--deals", "200", "--out", "{full}"], "not empty"),
    (["advise", "--seat", "0"], "dealer"),
]


@pytest.mark.parametrize("args, word", BAD, ids=[" ".join(a[:3]) for a, _ in BAD])
def test_bad_input_is_one_clear_line_and_exit_2(files, args, word):
    args = [a.format(**{k: str(v) for k, v in files.items()}) for a in args]
    res = _invoke(args)
    out = _clean(res)
    assert res.exit_code == 2, out
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert word.lower() in lines[0].lower(), lines[0]


def test_one_deal_and_one_game_work():
    res = _invoke(["simulate", "--deals", "1", "--no-progress"])
    assert res.exit_code == 0, res.output
    out = _clean(res)
    assert "of 1 deal with the Ten" in out or "never in play" in out
    res = _invoke(["simulate", "--games", "1"])
    assert res.exit_code == 0, res.output
    _clean(res)


def test_odds_with_one_deal_says_deal():
    res = _invoke(["odds", "--hand", "JS AS 9S KH QH 7D 8C 9C TC", "--turnup", "7S",
                   "--deals", "1"])
    assert res.exit_code == 0, res.output
    assert "1 deal consistent" in _clean(res)


# --------------------------------------------------------------------------- 80 columns
def _width_ok(text: str) -> None:
    lines = text.splitlines()
    assert max(len(ln) for ln in lines) <= 80, max(lines, key=len)
    assert "\u2026" not in text, "a cell was cut short"


def test_headline_table_fits_80_columns():
    from catchten_sim.text import print_simulation
    from catchten_sim.simulate import simulate
    for rules, n in ((Rules("foster", 4), 3000), (Rules("foster", 8), 3000),
                     (Rules("foster", 4), 1)):
        con = Console(width=80, record=True, highlight=False)
        print_simulation(simulate(rules, ["heuristic", "random"] * (rules.players // 2),
                                  n_deals=n, seed=1), con)
        _width_ok(con.export_text())


def test_advise_tables_fit_80_columns():
    from catchten_sim.advise import advise
    from catchten_sim.text import print_advice
    for f in ("position-lead.json", "position-score.json"):
        con = Console(width=80, record=True, highlight=False)
        print_advice(advise(EXAMPLES / f, samples=200, seed=1, time_limit=None), con)
        text = con.export_text()
        _width_ok(text)
        assert "[" in text and "best:" in text


# --------------------------------------------------------------------------- Ctrl-C
def test_ctrl_c_counts_exactly_the_rows_written():
    from catchten_sim.simulate import simulate
    written = []

    def writer(rows, first):
        written.append(len(rows))
        if len(written) == 3:               # Ctrl-C while this chunk is being written
            os.kill(os.getpid(), signal.SIGINT)

    res = simulate(Rules("foster", 4), "heuristic", n_deals=100_000, seed=3, chunk=1000,
                   on_chunk=writer)
    assert res.interrupted
    assert sum(written) == res.n_deals == res.to_dict()["deals"]


def test_interrupted_report_is_marked_numbered_as_a_full_one_and_exits_130(tmp_path,
                                                                         monkeypatch,
                                                                         blank_figures):
    S = importlib.import_module("catchten_sim.simulate")   # the module, not the function
    real = S.simulate
    calls = []

    def flaky(*a, **kw):
        calls.append(1)
        if len(calls) == 3:                 # Ctrl-C during the second sweep run
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(S, "simulate", flaky)
    out = tmp_path / "rep"
    res = _invoke(["report", "--deals", "300", "--sweep-deals", "200", "--out", out,
                   "--format", "png", "--no-sweep-variants", "--no-compare-policies"])
    assert res.exit_code == 130, res.output
    side = json.loads((out / "report.json").read_text())
    assert side["interrupted"] and side["interrupted_after_deals"] == 300 + 200
    names = sorted(p.name for p in out.glob("fig*.png"))
    # the player-count sweep ran one run: fig02 is still number 2, the rest keep theirs
    assert "fig02_ten_by_players.png" in names and "fig04_seat_advantage.png" in names
    assert not any(n.startswith("fig07") for n in names)      # not run: left out
    # ... and named as left out, in report.json and on stderr (issue 29)
    assert side["left_out"] == ["fig07_holding_value"]
    line = [ln for ln in messages(res.stderr) if ln.startswith("interrupted: ")]
    assert len(line) == 1 and "left out: fig07_holding_value" in line[0], res.stderr
    from catchten_sim.writers import FIGURE_NUMBERS
    for f in side["figures"]:
        assert f["png"].startswith(f"fig{FIGURE_NUMBERS[f['name']]:02d}_")


def test_report_default_directory_is_new_and_never_overwritten(tmp_path, monkeypatch,
                                                               blank_figures):
    monkeypatch.chdir(tmp_path)
    args = ["report", "--deals", "200", "--format", "png", "--no-sweep-players",
            "--no-sweep-variants", "--no-compare-policies"]
    for _ in range(2):
        res = _invoke(args)
        assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report-foster-4p",
                                                          "report-foster-4p-2"]
    full = tmp_path / "report-foster-4p"
    before = {p.name: p.stat().st_mtime_ns for p in full.iterdir()}
    res = _invoke(args + ["--out", full])
    assert res.exit_code == 2 and "not empty" in res.stderr
    assert {p.name: p.stat().st_mtime_ns for p in full.iterdir()} == before
    res = _invoke(args + ["--out", full, "--force"])
    assert res.exit_code == 0, res.output


# --------------------------------------------------------------------------- compile
@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing compiles")
def test_compile_notice_is_said_once_when_numba_compiles():
    from numba import njit

    from catchten_sim.compile_notice import compile_notice
    said = []

    @njit(cache=False)
    def f(x):
        return x + 1

    with compile_notice(said.append):
        f(1)
        f(2.0)          # a second signature compiles too: still one notice
    assert said == ["compiling the engine for this command's first run (once)"]   # no time
    said.clear()                                 # for a kernel of no measured kind
    with compile_notice(said.append):
        f(3)            # compiled already: nothing to say
    assert said == []


def _fake_kernel(module, name):
    from numba import njit

    def g(x):
        return x * 2
    g.__module__, g.__name__ = module, name
    return njit(cache=False)(g)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing compiles")
def test_a_cold_first_run_says_one_notice_with_one_estimate():
    """Issue 29: a first dd advice compiled three kinds of kernels and said three notices
    whose times added to 53 s while it took 83 s. Now: one notice, when the first kernel
    starts compiling, with one estimate for every kind the command still has to compile."""
    from catchten_sim.compile_notice import KINDS, compile_notice, first_run_text
    said = []
    with compile_notice(said.append, ("advice", "solver"), lambda entry: False):
        _fake_kernel("catchten_sim._kernels.rollout", "rollout_chunk")(1)
        _fake_kernel("catchten_sim._kernels.trick", "turnup_lock_bit")(1)
        _fake_kernel("catchten_sim._kernels.solve", "solve_batch")(1)
    whole = KINDS["advice"][1] + KINDS["solver"][1]
    assert said == [first_run_text(whole)]
    # the measured figure and its conditions, and what a busy machine may take (review2:
    # "about 25-80 s" was printed before a 158 s compile on a busy machine)
    n = int(round(whole / 5)) * 5
    assert said[0] == (f"compiling the engine for this command's first run (once): about "
                       f"{n} s on a lightly loaded 2-core machine, up to 3 times that on a "
                       "busy one")
    # a match of pimc against the heuristic: deal-and-play, pimc, sampler, solver: one line
    said.clear()
    with compile_notice(said.append, ("play", "pimc", "advice", "solver"), lambda e: False):
        for mod, name in [("engine", "_run_policies"), ("pimc", "scripted_deal"),
                          ("rollout", "rollout_chunk"), ("solve", "solve_batch")]:
            _fake_kernel(f"catchten_sim._kernels.{mod}", name)(1)
    assert said == [first_run_text(sum(KINDS[k][1] for k in ("play", "pimc", "advice",
                                                                  "solver")))]


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing compiles")
def test_the_estimate_leaves_out_kinds_already_cached():
    """A dd advice after a rollout advice: the sampler and rollouts load from the cache
    (the 'is it cached' check, mocked here), so only the solver's time is said; a kind
    that starts compiling counts even when the plan did not name it."""
    from catchten_sim.compile_notice import KINDS, compile_notice, first_run_text
    said = []
    with compile_notice(said.append, ("advice", "solver"),
                        lambda entry: not entry.startswith("solve.")):
        _fake_kernel("catchten_sim._kernels.solve", "solve_batch")(1)
    assert said == [first_run_text(KINDS["solver"][1])]
    said.clear()
    with compile_notice(said.append, ("advice",), lambda entry: True):
        _fake_kernel("catchten_sim._kernels.games", "run_unit_samples")(1)
    assert said == [first_run_text(KINDS["equity"][1])]


@pytest.mark.parametrize("args, kinds", [
    (["simulate", "-d", "1000"], ("play",)),
    (["simulate", "--policy", "random"], ("play_random",)),
    (["simulate", "-p", "random", "--opponents", "heuristic"], ("play",)),
    (["simulate", "--games", "50"], ("games",)),
    (["report"], ("play", "play_random")),
    # the README's main job: each kind once (it was counted twice: "45-90 s" for 11 s)
    (["simulate", "--report", "my-report"], ("play", "play_random")),
    (["advise", str(EXAMPLES / "position-lead.json")], ("advice",)),
    (["advise", str(EXAMPLES / "position-lead.json"), "--evaluator", "dd"],
     ("advice", "solver")),
    (["advise", str(EXAMPLES / "position-score.json")], ("advice", "equity")),
    (["advise", "--hand", "JS", "--score", "3 4", "--evaluator=dd"],
     ("advice", "solver", "equity")),
    (["odds", "--turnup", "7S"], ("advice",)),
    (["solve", "x.json"], ("solver",)),
    # honours only (french52, jaques, card points off): the solver's bounds for them too
    (["solve", "x.json", "--rules", "french52"], ("solver", "honours")),
    (["solve", str(EXAMPLES.parent / "tests" / "cases" / "dd" /
                   "jaques4_left3_mid2_01.json")], ("solver", "honours")),
    (["advise", "-r", "jaques", "--evaluator", "dd"], ("advice", "solver", "honours")),
    (["advise", "-r", "french52"], ("advice",)),
    (["match", "pimc:5", "heuristic", "-V", "card_points=off"],
     ("play", "pimc", "advice", "solver", "honours")),
    (["equity", "--players", "2"], ("equity",)),
    (["match", "pimc:5", "heuristic"], ("play", "pimc", "advice", "solver")),
    (["match", "heuristic", "random"], ("play",)),
    (["rules"], None),
    ([], None),
])
def test_each_command_names_what_its_first_run_compiles(args, kinds):
    from catchten_sim.compile_notice import first_run_kinds
    assert first_run_kinds(args) == kinds


def test_the_command_line_passes_its_plan_and_the_cache_check(monkeypatch):
    """The CLI hands the notice the command's kinds and a real 'is it cached' check."""
    from contextlib import nullcontext

    from catchten_sim import compile_notice
    from catchten_sim.cli_kit import _kernel_cached
    seen = []
    monkeypatch.setattr(compile_notice, "compile_notice",
                        lambda say, kinds=None, cached=None: seen.append((kinds, cached))
                        or nullcontext())
    res = _invoke(["solve", str(EXAMPLES / "hand.json")])
    assert res.exit_code == 2                    # a finished hand: nothing to solve
    assert seen == [(("solver",), _kernel_cached)]
    assert _kernel_cached("solve.no_such_kernel") is False


# --------------------------------------------------------------------------- Python API
def test_api_takes_paths_dicts_and_card_text():
    from catchten_sim.advise import advise
    from catchten_sim.odds import odds
    from catchten_sim.cards import Card
    a = advise(EXAMPLES / "position-lead.json", samples=200, seed=2, time_limit=None)
    b = advise(json.loads((EXAMPLES / "position-lead.json").read_text()), samples=200,
               seed=2, time_limit=None)
    assert isinstance(a.best, Card) and a.best == b.best
    assert a.best == str(a.best) and len(str(a.best)) == 2
    assert all(isinstance(x.card, Card) for x in a.candidates)
    o = odds(Rules("foster", 4), "JS AS 9S KH QH 7D 8C 9C TC", "7S", seat=0, dealer=3,
             n_deals=300)
    assert o.n_deals == 300 and 0 <= o.ten_ours.mean <= 1


def test_deals_print_as_cards():
    from catchten_sim.play import deal, play
    d = deal(Rules("foster", 4), seed=7, index=0)
    text = repr(d) + repr(play(d, "heuristic"))
    assert "turn-up" in text
    assert not any(len(tok) > 4 and tok.strip("(),;:[]").isdigit() for tok in text.split())


def test_interrupted_simulate_exits_130_and_counts_with_commas(monkeypatch):
    S = importlib.import_module("catchten_sim.simulate")   # the module, not the function
    real = S.simulate

    def interrupted(*a, **kw):
        def chunk(rows, first):
            os.kill(os.getpid(), signal.SIGINT)      # Ctrl-C after the first chunk
        kw["on_chunk"] = chunk
        kw["chunk"] = 1000
        return real(*a, **kw)

    monkeypatch.setattr(S, "simulate", interrupted)
    res = _invoke(["simulate", "--deals", "2000000", "--no-progress"])
    assert res.exit_code == 130, res.output
    assert "of 2,000,000 deals simulated" in res.output


@pytest.mark.parametrize("args, field, why", [
    (["odds", "--json", "--deals", "abc"], "deals", "bad option value"),
    (["equity", "--json", "--hands", "1e6"], "hands", "bad option value"),
    (["odds", "--json", "--turnup", "7S", "--seat", "0", "--dealer", "3"], "hand",
     "missing option"),
    (["simulate", "--json", "--players", "9"], "players", "players out of range"),
])
def test_json_errors_found_by_click_are_json_too(args, field, why):
    res = _invoke(args)
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1, res.output
    err = json.loads(lines[0])
    assert (err["kind"], err["field"], err["why"]) == ("error", field, why)


def test_package_names_are_the_functions():
    """``from catchten_sim import advise`` is the function (the modules stay importable by
    their dotted names), whether or not the module was imported first."""
    import catchten_sim
    from catchten_sim import advise, deal, equity_table, match, odds, play, simulate, solve
    mod = importlib.import_module("catchten_sim.advise")
    assert advise is mod.advise and callable(advise)
    assert odds is importlib.import_module("catchten_sim.odds").odds
    assert match is importlib.import_module("catchten_sim.match").match
    assert simulate is importlib.import_module("catchten_sim.simulate").simulate
    assert solve is importlib.import_module("catchten_sim.solve").solve
    p = importlib.import_module("catchten_sim.play")
    assert (deal, play) == (p.deal, p.play)
    assert equity_table is importlib.import_module("catchten_sim.equity").equity_table
    assert catchten_sim.advise is advise and set(catchten_sim.FUNCTIONS) <= set(
        catchten_sim.__all__)
    with pytest.raises(AttributeError):
        catchten_sim.no_such_name  # noqa: B018
