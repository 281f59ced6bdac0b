"""Issue 29, what a newcomer still trips on: files and threads (item 4), nesting (item 5),
messages that name what is wrong and how to fix it (item 6), 80 columns (item 3),
interrupts (items 1 and 2), long steps that say what they do (item 7)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from catchten_sim.cli import cli

from _text import messages

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _invoke(args, **kw):
    return CliRunner().invoke(cli, [str(a) for a in args], **kw)


def _one_error(res, *words):
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert res.exit_code == 2, res.output
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    for w in words:
        assert w in lines[0], lines[0]
    assert "internal error" not in lines[0]
    return lines[0]


# --------------------------------------------------------------------------- item 4

@pytest.mark.parametrize("args", [
    ["simulate", "--deals", "200", "--no-progress", "--out"],
    ["equity", "--players", "2", "--hands", "100", "--no-cache", "--out"],
], ids=["simulate", "equity"])
def test_out_file_never_creates_its_directory(tmp_path, args):
    out = tmp_path / "missing" / "x.csv"
    res = _invoke(args + [out])
    _one_error(res, "out", "does not exist")
    assert not (tmp_path / "missing").exists()


def test_threads_above_the_cores_are_capped_with_a_notice():
    from catchten_sim.checks import max_threads
    res = _invoke(["simulate", "--deals", "200", "--no-progress", "--threads", "1000"])
    assert res.exit_code == 0, res.output
    notes = [ln for ln in res.stderr.splitlines() if "--threads 1000" in ln]
    assert len(notes) == 1 and f"using {max_threads()}" in notes[0], res.stderr
    assert f"{max_threads()} thread" in res.stdout and "1000 threads" not in res.stdout


# --------------------------------------------------------------------------- item 5
@pytest.mark.parametrize("cmd, field", [("score", "record"), ("advise", "position"),
                                        ("solve", "record")])
@pytest.mark.parametrize("opener, closer", [("[", "]"), ('{"a":', "}")])
def test_deep_json_is_a_clean_error(tmp_path, cmd, field, opener, closer):
    f = tmp_path / "deep.json"
    f.write_text(opener * 100_000 + ("1" if opener != "[" else "") + closer * 100_000)
    res = _invoke([cmd, f])
    _one_error(res, f"{field}: nested too deeply")


def test_deep_toml_is_a_clean_error(tmp_path):
    f = tmp_path / "deep.toml"
    f.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    _one_error(_invoke(["rules", "--rules-file", f]), "rules-file: nested too deeply")


# --------------------------------------------------------------------------- item 6
def test_score_given_a_position_says_it_is_a_position():
    line = _one_error(_invoke(["score", EXAMPLES / "position-lead.json"]),
                      "position", "advise")
    assert "unknown field" not in line


def test_odds_without_turnup_says_it_is_missing():
    line = _one_error(_invoke(["odds", "--hand", "JS AS 9S KH QH 7D 8C 9C TC"]),
                      "turnup", "--turnup")
    assert "malformed" not in line and "null" not in line


def test_record_with_more_hands_than_players_names_players(tmp_path):
    d = json.loads((EXAMPLES / "hand.json").read_text())
    d["players"] = 3
    f = tmp_path / "p3.json"
    f.write_text(json.dumps(d))
    _one_error(_invoke(["score", f]), "4 hands", "players")


def test_dealer_hand_without_the_turnup_says_where_it_belongs():
    line = _one_error(_invoke(["advise", "--players", "4", "--dealer", "3", "--seat", "3",
                               "--turnup", "7S", "--hand", "JS AS 9S KH QH 7D 8C 9C",
                               "--play", "TC AC KC"]))
    assert "turn-up 7S" in line and "dealer's hand" in line, line


# --------------------------------------------------------------------------- item 3
DD = ROOT / "tests" / "cases" / "dd" / "foster2_left2_lead_01.json"
EVERY_COMMAND = [
    [], ["--help"], ["rules"], ["rules", "--switches"], ["rules", "--players", "8"],
    ["rules", "--rules", "jaques", "--switches"],
    ["simulate", "--deals", "2000", "--no-progress"],
    ["simulate", "--games", "20", "--no-progress"],
    ["simulate", "--players", "6", "--deals", "500", "--seat-policy", "2=random",
     "--no-progress"],
    ["score", EXAMPLES / "hand.json"], ["score", EXAMPLES / "game.json"],
    ["solve", DD], ["solve", "--line", DD],
    ["advise", EXAMPLES / "position-lead.json", "--samples", "200", "--no-progress"],
    ["advise", EXAMPLES / "position-score.json", "--samples", "200", "--no-progress",
     "--explain", "1"],
    ["odds", "--hand", "JS AS 9S KH QH 7D 8C 9C TC", "--turnup", "7S", "--deals", "200",
     "--no-progress"],
    ["match", "heuristic", "random", "--deals", "200", "--no-progress"],
    ["match", "heuristic", "random", "--players", "6", "--deals", "60", "--no-progress"],
    ["equity", "--players", "2", "--hands", "2000", "--no-cache", "--no-progress"],
]
for _cmd in ("simulate", "report", "resume", "summarize", "score", "solve", "advise", "odds",
             "match", "equity", "rules"):
    EVERY_COMMAND.append([_cmd, "--help"])


@pytest.mark.parametrize("args", EVERY_COMMAND,
                         ids=[" ".join(str(a) for a in c[:3]) or "bare" for c in EVERY_COMMAND])
def test_every_line_fits_80_columns(args):
    res = _invoke(args, env={"COLUMNS": "80"})
    assert res.exit_code in (0, 130), res.output
    out = res.stdout + res.stderr
    # a line may pass 80 only as one word longer than 80 (a path), which no wrap can split
    wide = [ln for ln in out.splitlines() if len(ln) > 80 and len(ln.split()) > 1]
    assert not wide, "\n".join(wide)
    if not args:        # bare catchten: the help, as --help prints it
        assert res.exit_code == 0 and "error" not in out and "Commands:" in res.stdout


def test_report_lines_fit_80_columns(tmp_path, blank_figures):
    res = _invoke(["report", "--deals", "1000", "--no-sweep-players", "--no-sweep-variants",
                   "--no-compare-policies", "--format", "png", "--out", tmp_path / "r",
                   "--progress"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    wide = [ln for ln in (res.stdout + res.stderr).splitlines() if len(ln) > 80]
    assert not wide, "\n".join(wide)


# --------------------------------------------------------------------------- item 1
@pytest.mark.serial     # times itself
def test_ctrl_c_during_the_equity_dp_acts_at_once_and_says_what_it_had(monkeypatch):
    import os
    import signal
    import threading
    import time
    from catchten_sim import equity

    def slow_dp(*a, **kw):      # the DP kernel releases the GIL, as time.sleep does
        time.sleep(6)
        raise AssertionError("the DP was not abandoned")

    monkeypatch.setattr(equity, "solve_equity", slow_dp)
    started = []

    def on_solve(*a):
        started.append(time.perf_counter())
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()

    real = equity.equity_table
    monkeypatch.setattr(equity, "equity_table",
                        lambda *a, **kw: real(*a, **{**kw, "on_solve": on_solve}))
    res = _invoke(["equity", "--players", "2", "--hands", "2000", "--no-cache",
                   "--no-progress"])
    took = time.perf_counter() - started[0]
    assert res.exit_code == 130, res.output
    assert took < 0.3 + 1.0, took
    line = res.stderr.strip().splitlines()[-1]
    assert "during the game-equity DP" in line and "2,000 deals" in line, line
    assert "before the first batch" not in res.stderr


@pytest.mark.serial     # times itself
def test_a_second_ctrl_c_exits_at_once(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    script = tmp_path / "held.py"
    script.write_text(
        "import time\n"
        "from catchten_sim.cli_kit import second_interrupt_exits\n"
        "from catchten_sim.run import sigint_deferred\n"
        "with second_interrupt_exits():\n"
        "    with sigint_deferred():\n"
        "        print('ready', flush=True)\n"
        "        time.sleep(30)\n")
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert p.stdout.readline().strip() == "ready"
        p.send_signal(signal.SIGINT)
        time.sleep(0.5)
        assert p.poll() is None, "the first Ctrl-C is held until the block ends"
        t = time.perf_counter()
        p.send_signal(signal.SIGINT)
        p.wait(timeout=5)
        assert time.perf_counter() - t < 1.0
        assert p.returncode == 130
        assert "second Ctrl-C" in p.stderr.read()
    finally:
        p.kill()


# --------------------------------------------------------------------------- item 7
def test_equity_cache_says_where_and_how_big(tmp_path):
    env = {"CATCHTEN_CACHE_DIR": str(tmp_path / "cache")}
    res = _invoke(["equity", "--players", "2", "--hands", "2000", "--no-progress"], env=env)
    assert res.exit_code == 0, res.output
    files = list((tmp_path / "cache").glob("*.npz"))
    assert len(files) == 1
    line = [ln for ln in messages(res.stderr) if "cached in" in ln]
    assert len(line) == 1, res.stderr
    assert str(files[0]) in line[0] and "--no-cache" in line[0]
    assert " MB" in line[0] or " kB" in line[0]
    res = _invoke(["equity", "--players", "2", "--hands", "2000", "--no-progress"], env=env)
    assert f"read from the cache, {files[0]}" in " ".join(messages(res.stderr))


@pytest.mark.parametrize("args, what", [
    (["simulate", "--deals", "2000"], "simulate: 2,000 deals"),
    (["equity", "--players", "2", "--hands", "2000", "--no-cache"], "equity: simulating"),
    (["match", "heuristic", "random", "--deals", "100"], "match: heuristic against random"),
    (["simulate", "--games", "20"], "simulate: 20 whole games"),
    (["advise", str(ROOT / "examples" / "position-lead.json"), "--evaluator", "dd",
      "--samples", "20"], "advise: every legal card by dd"),
    (["advise", str(ROOT / "examples" / "position-lead.json"), "--samples", "200"],
     "advise: every legal card by rollout"),
])
def test_long_steps_say_what_they_do_when_stderr_is_not_a_terminal(monkeypatch, args, what):
    from catchten_sim import cli_kit
    monkeypatch.setattr(cli_kit, "LONG_STEP_S", 0.0)    # every step counts as long here
    res = _invoke(args)             # CliRunner's stderr is not a terminal
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith(what)]
    assert len(lines) == 2, res.stderr
    assert lines[0].endswith("...") and " done in " in lines[1]
    quiet = _invoke(args + ["--no-progress"])
    assert what not in quiet.stderr


@pytest.mark.parametrize("args", [
    ["simulate", "--deals", "2000"], ["simulate", "--games", "20"],
    ["match", "heuristic", "random", "--deals", "100"],
    ["advise", str(ROOT / "examples" / "position-lead.json"), "--samples", "200"],
])
def test_done_in_says_the_seconds_the_result_says(monkeypatch, args):
    """``WHAT: done in N s`` on stderr and the result's time (its ``elapsed_s``) are one
    number: advise's counts from the process's start (its --time covers the start-up),
    and its done line counted from the step's (a new user read 2.0 s beside 3.4 s)."""
    import re
    import time
    from catchten_sim import cli_kit, compile_notice
    monkeypatch.setattr(cli_kit, "LONG_STEP_S", 0.0)    # every step counts as long here
    # a process started 3 s ago (CliRunner's runs are in this older process)
    started = time.perf_counter() - 3.0
    monkeypatch.setattr(compile_notice, "process_started", lambda: started)
    res = _invoke([*args, "--json"])
    assert res.exit_code == 0, res.output
    done = re.search(r": done in ([0-9.]+) s", " ".join(res.stderr.split()))
    assert done, res.stderr
    elapsed = json.loads(res.stdout)["elapsed_s"]
    assert abs(float(done.group(1)) - elapsed) <= 0.15, (done.group(0), elapsed)


# --------------------------------------------------------------------------- item 8
def _text_outside(fig) -> list[str]:
    """Every text ``fig`` draws at 150 dpi (tick labels outside the view are not drawn,
    so the texts are caught as they are drawn) whose box leaves the canvas."""
    from unittest import mock
    from matplotlib.text import Text
    real_draw = Text.draw
    seen = []

    def draw(self, renderer):
        real_draw(self, renderer)
        if self.get_visible() and self.get_text().strip():
            seen.append((self.get_text(), self.get_window_extent(renderer)))

    fig.set_dpi(150)
    with mock.patch.object(Text, "draw", draw):
        fig.canvas.draw()
    W, H = fig.canvas.get_width_height()
    assert seen
    return [f"{text[:60]!r}: x {bb.x0:.0f}..{bb.x1:.0f} of {W}, y {bb.y0:.0f}..{bb.y1:.0f} "
            f"of {H}" for text, bb in seen
            if bb.x0 < -0.5 or bb.y0 < -0.5 or bb.x1 > W + 0.5 or bb.y1 > H + 0.5]


def test_no_figure_text_is_clipped_at_150_dpi(tmp_path, monkeypatch):
    from matplotlib.figure import Figure
    from catchten_sim import Rules
    from catchten_sim.report import build_report
    from catchten_sim.writers import PNG_DPI
    assert PNG_DPI == 150
    drawn = {}
    real = Figure.savefig

    def keep(self, fname, *a, **kw):
        drawn[Path(str(fname)).stem] = self
        return real(self, fname, *a, **kw)

    monkeypatch.setattr(Figure, "savefig", keep)
    rep = build_report(Rules("foster", 4), n_deals=2000, sweep_deals=1000, seed=1,
                       out_dir=tmp_path / "r", formats="png")
    assert len(drawn) == len(rep.figures) == 9, sorted(drawn)
    bad = {name: _text_outside(fig) for name, fig in drawn.items()}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, bad
    hold = rep.tables["holding_value"]
    assert not hold["holding"].str.contains("10").any()     # the Ten is written T
    assert hold["holding"].str.contains("T").any()


@pytest.mark.serial     # times itself
def test_report_time_is_a_promise(tmp_path):
    import time
    T = 16.0
    t = time.perf_counter()
    res = _invoke(["report", "--deals", "100000000", "--time", T, "--out", tmp_path / "r",
                   "--format", "png", "--no-progress"])
    took = time.perf_counter() - t
    assert res.exit_code == 0, res.output
    assert took <= T + max(0.1 * T, 1.0), took
    side = json.loads((tmp_path / "r" / "report.json").read_text())
    assert side["stopped_by"] == "time limit" and side["interrupted"]
    assert "time limit: stopped after" in res.stderr
    assert side["deals"] < 100_000_000


def test_report_time_too_short_for_the_figures_is_refused(tmp_path):
    _one_error(_invoke(["report", "--time", "3", "--out", tmp_path / "r"]),
               "time: too short for a report")
    assert not (tmp_path / "r").exists()


def test_readme_names_exactly_the_packages_pyproject_installs():
    """The README's package sentence lacked starlette and uvicorn (the page) and the
    tests' httpx and playwright; it names pyproject's dependencies and its test extra
    (less what the dependencies already bring), no more, no less. (A few ms.)"""
    import re
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    def names(deps):
        return [re.match(r"[A-Za-z0-9_.-]+", d).group(0).lower() for d in deps]

    main = names(project["dependencies"])
    tests = [n for n in names(project["optional-dependencies"]["test"]) if n not in main]
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    said = re.search(r"Installed: ([^()]*) \(tests: ([^()]*)\)", text)
    assert said, "README: the 'Installed: ... (tests: ...)' sentence"
    assert said.group(1).split(", ") == main
    assert said.group(2).split(", ") == tests
