"""The run engine (catchten_sim.run): one chunk plan, executors that agree, run
directories that survive a SIGKILL and resume to the same numbers, Dask clusters that give
the same numbers as threads, and one clear line for every run-directory problem."""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from catchten_sim import Rules
from catchten_sim import run as runner
from catchten_sim.run import dirs, engine
from catchten_sim.cli import cli

from _text import messages
from catchten_sim.simulate import resume, simulate, summarize

ROOT = Path(__file__).resolve().parents[1]
TIMING = ("elapsed_s", "compile_s", "deals_per_s", "threads")


def numbers(res) -> dict:
    """A result's JSON without the timing fields (those differ run to run)."""
    d = res.to_dict()
    for k in TIMING:
        d.pop(k)
    return d


def curve(res) -> list:
    c = res.acc.convergence_frame()
    d = c["deals"].to_numpy()
    return c[(d & (d - 1)) == 0].to_numpy().tolist()        # the powers of two


# ------------------------------------------------------------------------------- the plan
@pytest.mark.parametrize("n,chunk", [(1, 5), (16, 16), (17, 4), (1000, 100), (5000, 2048)])
def test_chunk_plan_covers_the_items_once_and_ends_on_powers_of_two(n, chunk):
    e = runner.chunk_plan(n, chunk)
    assert e[0] == 0 and e[-1] == n and (np.diff(e) > 0).all()
    assert (np.diff(e) <= chunk).all()
    ends = set(e.tolist())
    assert all((1 << k) in ends for k in range(4, 63) if (1 << k) < n)
    assert all(m in ends for m in range(0, n, chunk))
    assert (runner.chunk_plan(n, chunk) == e).all()        # a function of (n, chunk) only


def test_executors_and_chunk_sizes_give_the_same_numbers():
    rules = Rules("foster", 4)
    base = simulate(rules, "heuristic", n_deals=5000, seed=7, threads=1)
    for kw in ({"threads": 2}, {"threads": 2, "chunk": 333}, {"threads": 1, "chunk": 64}):
        other = simulate(rules, "heuristic", n_deals=5000, seed=7, **kw)
        assert numbers(other) == numbers(base), kw
        assert curve(other) == curve(base), kw
    assert [r[0] for r in curve(base)] == [2 ** k for k in range(4, 13)]


# ------------------------------------------------------------------------ run directories
def test_run_dir_summarize_and_resume_equal_an_uninterrupted_run(tmp_path):
    rules = Rules("foster", 3)
    whole = simulate(rules, "random", n_deals=3000, seed=3, chunk=500, threads=2)
    d = tmp_path / "run"
    first = simulate(rules, "random", n_deals=3000, seed=3, chunk=500, run_dir=d)
    assert numbers(first) == numbers(whole)
    assert numbers(summarize(d)) == numbers(whole)
    files = sorted((d / "chunks").glob("chunk-*.parquet"))
    assert len(files) == len(runner.chunk_plan(3000, 500)) - 1
    for f in files[2:9:3]:                        # as if those chunks were lost in flight
        f.unlink()
    part = summarize(d)
    assert part.interrupted and part.n_deals < 3000
    done = resume(d, threads=1)
    assert numbers(done) == numbers(whole)
    assert curve(done) == curve(whole)
    import pandas as pd                           # the chunks read as one Parquet dataset
    ds = pd.read_parquet(d / "chunks")
    assert set(ds.columns) == {"chunk", "first", "count", "i", "value"}
    assert ds.groupby("chunk")["count"].first().sum() == 3000


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_sigkill_mid_run_then_resume_gives_the_same_numbers(tmp_path):
    d = tmp_path / "run"
    # 500 chunks: at ~2 M deals/s on an idle machine the run lasts ~1 s, so the poll
    # below (every 20 ms) catches it between 20 chunks and the end
    args = ["--players", "4", "--policy", "random", "--deals", "2000000", "--seed", "11",
            "--chunk", "4000", "--threads", "1"]
    _kill_after(["simulate", *args, "--run-dir", str(d), "--no-progress"], d, 20)
    n_plan = len(runner.chunk_plan(2000000, 4000)) - 1
    kept = len(list(d.joinpath("chunks").glob("chunk-*.parquet")))
    assert 20 <= kept < n_plan
    res = CliRunner().invoke(cli, ["resume", str(d), "--json", "--no-progress"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    resumed = json.loads(res.stdout)
    whole = simulate(Rules("foster", 4), "random", n_deals=2000000, seed=11, chunk=4000)
    for k in TIMING:
        resumed.pop(k)
    assert resumed == numbers(whole)
    # the summary of the killed-and-resumed directory is the same bytes as an
    # uninterrupted run's
    d2 = tmp_path / "whole"
    assert CliRunner().invoke(cli, ["simulate", *args, "--run-dir", str(d2),
                                    "--no-progress"]).exit_code == 0
    a, b = (CliRunner().invoke(cli, ["summarize", str(x), "--json"]) for x in (d, d2))
    assert a.exit_code == b.exit_code == 0 and a.stdout == b.stdout


def _one_line(res, *words, field="run-dir"):
    assert res.exit_code == 2, (res.exit_code, res.output)
    # the one-time compile notice (a cold numba cache) is information, not part of the error
    lines = [ln for ln in res.stderr.strip().splitlines()
             if not ln.startswith("compiling the engine")]
    assert len(lines) == 1 and lines[0].startswith(f"error: {field}:"), res.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_a_directory_of_another_run_or_version_is_refused(tmp_path):
    d = tmp_path / "run"
    base = ["simulate", "--deals", "200", "--chunk", "100", "--run-dir", str(d),
            "--no-progress", "--policy", "random"]
    assert CliRunner().invoke(cli, base).exit_code == 0
    _one_line(CliRunner().invoke(cli, base + ["--seed", "2"]), "made for another run", "seed")
    _one_line(CliRunner().invoke(cli, base + ["--players", "5"]), "made for another run",
              "rules")
    _one_line(CliRunner().invoke(cli, base + ["-V", "keep_six_of_spades"]),
              "made for another run", "rules")
    m = json.loads((d / "manifest.json").read_text())
    here = m["engine"]
    assert here == runner.engine_fingerprint("simulate") and len(here) == 12
    for engine in ("0123456789ab", None):      # another build; a manifest from before
        (d / "manifest.json").write_text(json.dumps({**m, "engine": engine}))
        for cmd in (["resume", str(d)], ["summarize", str(d)], base):
            _one_line(CliRunner().invoke(cli, cmd), "made by another build of the engine",
                      f"fingerprint {engine or 'none'}, this is {here}")
    m["version"] = "0.0.1"
    (d / "manifest.json").write_text(json.dumps(m))
    for cmd in (["resume", str(d)], ["summarize", str(d)], base):
        _one_line(CliRunner().invoke(cli, cmd), "made by another version", "0.0.1")
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    _one_line(CliRunner().invoke(cli, ["simulate", "--deals", "100", "--run-dir", str(other)]),
              "not a run directory")
    _one_line(CliRunner().invoke(cli, ["resume", str(tmp_path / "missing")]),
              "not a run directory")


@pytest.mark.parametrize("code,words", [(errno.EROFS, "Read-only file system"),
                                        (errno.ENOSPC, "No space left on device")])
def test_read_only_or_full_disk_is_one_line(tmp_path, monkeypatch, code, words):
    calls = {"n": 0}
    real = os.fsync

    def failing_fsync(fd):          # the disk fills up (or turns read-only) mid-run
        calls["n"] += 1
        if calls["n"] > 3:
            raise OSError(code, os.strerror(code))
        return real(fd)

    monkeypatch.setattr(dirs.os, "fsync", failing_fsync)
    d = tmp_path / "run"
    res = CliRunner().invoke(cli, ["simulate", "--deals", "5000", "--chunk", "500",
                                   "--run-dir", str(d), "--no-progress"])
    _one_line(res, "cannot write", words)
    assert not list((d / "chunks").glob(".*tmp"))          # no half-written leftovers


@pytest.mark.parametrize("cmd", [
    ["match", "heuristic", "random", "--deals", "4000", "--no-early-stop", "--pilot", "400"],
    ["equity", "-n", "2", "-V", "target=11", "--hands", "3000", "--chunk", "300"],
    ["simulate", "--games", "400", "-n", "2", "--chunk", "40"]])
def test_a_full_disk_is_one_line_for_every_kind(tmp_path, monkeypatch, cmd):
    calls = {"n": 0}
    real = os.fsync

    def failing_fsync(fd):
        calls["n"] += 1
        if calls["n"] > 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    monkeypatch.setattr(dirs.os, "fsync", failing_fsync)
    d = tmp_path / "run"
    res = CliRunner().invoke(cli, [*cmd, "--run-dir", str(d), "--no-progress"])
    _one_line(res, "cannot write", "No space left on device")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_read_only_directory_is_one_line(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        res = CliRunner().invoke(cli, ["simulate", "--deals", "100",
                                       "--run-dir", str(ro / "run")])
        _one_line(res, "cannot write")
    finally:
        ro.chmod(0o755)


# ------------------------------------------------------------------------------- Dask
def test_local_cluster_of_two_workers_equals_threads(recwarn):
    """... and it starts quietly with Dask's dashboard port 8787 taken."""
    import socket
    pytest.importorskip("distributed")
    rules = Rules("foster", 4)
    threads = simulate(rules, "heuristic", n_deals=20000, seed=5, chunk=2000, threads=2)
    taken = socket.socket()
    try:
        taken.bind(("127.0.0.1", 8787))
        taken.listen()
    except OSError:
        pass                                # taken already: as good
    try:
        dask = simulate(rules, "heuristic", n_deals=20000, seed=5, chunk=2000, workers=2)
    finally:
        taken.close()
    assert not [w for w in recwarn if "8787" in str(w.message)]
    assert dask.executor == "Dask LocalCluster, 2 worker threads"    # the header says it
    assert numbers(dask) == numbers(threads)
    assert curve(dask) == curve(threads)


def test_a_worker_killed_mid_run_costs_only_its_chunks(tmp_path):
    distributed = pytest.importorskip("distributed")
    rules = Rules("foster", 4)
    whole = simulate(rules, "random", n_deals=60000, seed=9, chunk=1000, threads=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=50) as cluster:
        with distributed.Client(cluster) as client:
            victim = sorted(client.run(os.getpid).values())[0]
        killed = []

        def progress(done, total):
            if not killed and done >= 5000:
                os.kill(victim, signal.SIGKILL)
                killed.append(done)

        got = simulate(rules, "random", n_deals=60000, seed=9, chunk=1000,
                       scheduler=cluster.scheduler_address, run_dir=tmp_path / "run",
                       progress=progress)
    assert killed
    assert numbers(got) == numbers(whole)


def test_games_on_the_engine_do_not_depend_on_threads_or_chunks():
    from catchten_sim.games import simulate_games
    rules = Rules("foster", 4)
    got = []
    for kw in ({"threads": 1}, {"threads": 2, "chunk": 7}, {"threads": 2, "chunk": 1000}):
        rows: list = []
        res = simulate_games(rules, "random", n_games=300, seed=4,
                             on_rows=lambda r, first, rows=rows: rows.append((first, r.copy())),
                             **kw)
        d = res.to_dict()
        d.pop("elapsed_s", None)
        d.pop("compile_s", None)
        d.pop("threads", None)
        firsts = [f for f, _ in rows]
        assert firsts == sorted(firsts) and firsts[0] == 0     # rows arrive in game order
        got.append((d, np.concatenate([r for _, r in rows]).tolist()))
    assert got[0] == got[1] == got[2]


def test_report_from_a_run_directory_does_not_rerun_the_main_run(tmp_path, blank_figures):
    d = tmp_path / "run"
    simulate(Rules("foster", 4), "random", n_deals=4000, seed=6, chunk=1000, run_dir=d)
    out = tmp_path / "rep"
    res = CliRunner().invoke(cli, ["report", "--from", str(d), "--out", str(out),
                                   "--format", "png", "--no-sweep-players",
                                   "--no-sweep-variants", "--no-compare-policies",
                                   "--no-progress"])
    assert res.exit_code == 0, res.output
    side = json.loads((out / "report.json").read_text())
    text = json.dumps(side)
    assert '"seed": 6' in text and "4000" in text.replace(",", "")
    bad = CliRunner().invoke(cli, ["report", "--from", str(d), "--players", "5"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: players: not with --from")


# ------------------------------------------------------- every kind of run directory
def _kill_after(args: list[str], d: Path, chunks: int) -> None:
    """Run ``catchten ARGS`` in a child and SIGKILL it once ``chunks`` chunk files of
    run directory ``d`` exist (polled every 20 ms)."""
    proc = subprocess.Popen([sys.executable, "-m", "catchten_sim.cli", *args], env=_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 180
    try:
        while time.time() < deadline and proc.poll() is None:
            if len(list(d.glob("chunks/chunk-*.parquet"))) >= chunks:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the run ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()


def _resume_json(d: Path) -> dict:
    res = CliRunner().invoke(cli, ["resume", str(d), "--json", "--no-progress"],
                             catch_exceptions=False)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    for k in ("elapsed_s", "compile_s", "threads", "simulation_s", "dp_s"):
        out.pop(k, None)
    return out


def test_match_killed_then_resumed_gives_the_same_numbers(tmp_path):
    from catchten_sim.match import match
    d = tmp_path / "m"
    _kill_after(["match", "random", "heuristic", "--no-early-stop", "--deals", "600000",
                 "--pilot", "0", "--threads", "1", "--seed", "8", "--run-dir", str(d),
                 "--no-progress", "--report", str(tmp_path / "rep")], d, 2)
    n_plan = 600000 // 4 // 8192 + 1
    assert 2 <= len(list(d.glob("chunks/chunk-*.parquet"))) < n_plan
    part = CliRunner().invoke(cli, ["summarize", str(d)])
    assert part.exit_code == 0 and "unfinished" in part.stderr and "run on:" in part.stdout
    got = _resume_json(d)
    whole = match(Rules("foster", 4), "random", "heuristic", deals=600000, seed=8, pilot=0,
                  stop_early=False).to_dict()
    for k in ("elapsed_s", "compile_s", "threads"):
        whole.pop(k)
    # the resume wrote the report the killed command asked for (--report)
    files = got.pop("report")
    assert got == whole and got["stop"] == "deals"
    assert sorted(Path(f).name for f in files) == ["match.json", "match.png", "match.txt"]
    rep = json.loads((tmp_path / "rep" / "match.json").read_text())
    assert rep["deals"] == whole["deals"] and rep["mean_difference"] == whole["mean_difference"]


def test_match_run_dir_keeps_the_looks_of_a_plain_run(tmp_path):
    """With early stopping, a match in a run directory (and resumed from one) stops at the
    same look with the same numbers as one without."""
    from catchten_sim.match import from_run_dir, match
    plain = match(Rules("foster", 4), "heuristic", "random", deals=40000, seed=2).to_dict()
    d = tmp_path / "m"
    first = match(Rules("foster", 4), "heuristic", "random", deals=40000, seed=2,
                  run_dir=d, threads=1).to_dict()
    for f in sorted(d.glob("chunks/chunk-*.parquet"))[1:]:
        f.unlink()
    again = from_run_dir(d, threads=2).to_dict()
    for x in (plain, first, again):
        x.pop("elapsed_s")
        x.pop("compile_s")
        x.pop("threads")
    assert plain == first == again and plain["stop"] == "separated"
    assert (d / "pilot.json").exists()


def test_equity_killed_then_resumed_gives_the_same_table(tmp_path):
    from catchten_sim.equity import equity_table
    d = tmp_path / "e"
    args = ["equity", "-n", "2", "-V", "target=11", "--hands", "60000", "--chunk", "500",
            "--threads", "1", "--seed", "5"]
    out = tmp_path / "eq.csv"
    _kill_after([*args, "--run-dir", str(d), "--no-progress", "--out", str(out)], d, 10)
    assert 10 <= len(list(d.glob("chunks/chunk-*.parquet"))) < 120
    got = _resume_json(d)
    whole = equity_table(Rules("foster", 2, {"target": 11}), "heuristic", n_hands=60000,
                         seed=5)
    assert got["distinct_outcomes"] == whole.n_outcomes and got["hands"] == 60000
    assert [e["p_win"] for e in got["start"]] == \
        [list(whole.p_win((0, 0), s)) for s in range(2)]
    # the resume wrote the table the killed command asked for (--out)
    assert got["csv"] == str(out.resolve())
    assert out.read_text() == whole.to_csv(tmp_path / "whole.csv").read_text()


def test_games_resume_and_summarize(tmp_path):
    from catchten_sim.games import from_run_dir, simulate_games
    rules = Rules("foster", 2)
    whole = simulate_games(rules, "heuristic", n_games=2000, seed=4, threads=2).to_dict()
    d = tmp_path / "g"
    simulate_games(rules, "heuristic", n_games=2000, seed=4, chunk=200, run_dir=d)
    for f in sorted(d.glob("chunks/chunk-*.parquet"))[3::2]:
        f.unlink()
    rd = runner.RunDir.open(d)
    rd.compute = False
    assert from_run_dir(rd).n_games == 1200
    got = from_run_dir(d, threads=1).to_dict()
    for x in (whole, got):
        x.pop("elapsed_s")
        x.pop("compile_s")
        x.pop("threads")
    assert got == whole


@pytest.mark.parametrize("kind", ["games", "equity", "match", "report"])
def test_each_kind_refuses_a_directory_of_another_run(tmp_path, kind, blank_figures):
    d = tmp_path / kind
    base = {"games": ["simulate", "--games", "40", "-n", "2", "--chunk", "20"],
            "equity": ["equity", "-n", "2", "-V", "target=11", "--hands", "200"],
            "match": ["match", "heuristic", "random", "--deals", "64", "--pilot", "0"],
            "report": ["report", "--deals", "1000", "--no-sweep-players",
                       "--no-sweep-variants", "--no-compare-policies", "--format", "png",
                       "--out", str(tmp_path / "out")]}[kind]
    ok = CliRunner().invoke(cli, [*base, "--run-dir", str(d), "--no-progress"])
    assert ok.exit_code == 0, ok.output
    _one_line(CliRunner().invoke(cli, [*base, "--run-dir", str(d), "--no-progress",
                                       "--seed", "2"]), "made for another run", "seed")
    m = json.loads((d / "manifest.json").read_text())
    assert m["kind"] == kind
    m["version"] = "0.0.1"
    (d / "manifest.json").write_text(json.dumps(m))
    for cmd in (["resume", str(d)], ["summarize", str(d)]):
        _one_line(CliRunner().invoke(cli, cmd), "made by another version", "0.0.1")


class _CountingCluster(runner.InlineExecutor):
    """Stands for :class:`runner.DaskExecutor` (same arguments): counts the executors made
    and the runs they were asked to map (where a real one starts its cluster)."""

    made: list = []
    mapped: list = []

    def __init__(self, scheduler=None, workers=None):
        super().__init__()
        _CountingCluster.made.append(workers)

    def map(self, task, chunks):
        _CountingCluster.mapped.append(task.key)
        yield from super().map(task, chunks)


def test_report_run_dir_resumes_only_what_is_missing(tmp_path, monkeypatch, blank_figures):
    """The policy comparisons (whose Ten was caught: counts beside the accumulator) live in
    the run directory too: a lost chunk of one is run again and the figures' numbers are
    those of the uninterrupted report. A resume on a cluster uses one cluster for all the
    runs, and starts none when nothing is left to run."""
    d, out = tmp_path / "r", tmp_path / "out"
    args = ["report", "-n", "3", "--deals", "2000", "--sweep-deals", "1000",
            "--no-sweep-variants", "--no-sweep-players", "--format", "png", "--out",
            str(out), "--run-dir", str(d), "--no-progress", "--chunk", "250"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    first = json.loads((out / "report.json").read_text())
    table = (out / "fig09_policies.csv").read_text()
    runs = sorted((d / "runs").iterdir())
    assert runs[0].name == "00-main" and len(runs) == len(first["runs"]) == 5
    assert json.loads((runs[2] / "manifest.json").read_text())["reduce"] == "ten_by_side"
    for f in sorted(runs[2].glob("chunks/chunk-*.parquet"))[1:]:
        f.unlink()
    from catchten_sim.report import runs_status
    status = runs_status(d)
    assert [r["deals"] < r["requested"] for r in status] == \
        [i == 2 for i in range(len(runs))]
    s = CliRunner().invoke(cli, ["summarize", str(d)])
    assert s.exit_code == 0 and runs[2].name in s.stdout
    monkeypatch.setattr(engine, "DaskExecutor", _CountingCluster)
    _CountingCluster.made, _CountingCluster.mapped = [], []
    assert CliRunner().invoke(cli, ["resume", str(d), "--no-progress", "--workers",
                                    "2"]).exit_code == 0
    assert _CountingCluster.made == [2] and len(_CountingCluster.mapped) == 1
    assert CliRunner().invoke(cli, ["resume", str(d), "--no-progress", "--workers",
                                    "2"]).exit_code == 0
    assert len(_CountingCluster.mapped) == 1          # finished: no cluster started
    again = json.loads((out / "report.json").read_text())
    strip = lambda side: [{k: v for k, v in r.items() if k != "elapsed_s"}  # noqa: E731
                          for r in side["runs"]]
    assert strip(again) == strip(first)
    assert (out / "fig09_policies.csv").read_text() == table


def test_summarize_says_where_the_chunks_ran(tmp_path):
    d = tmp_path / "s"
    simulate(Rules("foster", 4), "random", n_deals=2000, seed=1, chunk=500, threads=2,
             run_dir=d)
    res = CliRunner().invoke(cli, ["summarize", str(d)])
    assert res.exit_code == 0
    assert "0 threads" not in res.stdout and "run on: threads, 2" in res.stdout


def test_report_from_an_unfinished_directory_says_unfinished(tmp_path, blank_figures):
    d = tmp_path / "run"
    simulate(Rules("foster", 4), "random", n_deals=4000, seed=6, chunk=1000, run_dir=d)
    next(iter(sorted(d.glob("chunks/chunk-*.parquet"))[-1:])).unlink()
    res = CliRunner().invoke(cli, ["report", "--from", str(d), "--out", str(tmp_path / "o"),
                                   "--format", "png", "--no-sweep-players",
                                   "--no-sweep-variants", "--no-compare-policies",
                                   "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "interrupted" not in res.stderr
    assert "unfinished" in res.stderr and f"catchten resume {d}" in res.stderr


def test_match_games_and_equity_on_a_cluster_equal_threads():
    distributed = pytest.importorskip("distributed")
    from catchten_sim.equity import equity_table
    from catchten_sim.games import simulate_games
    from catchten_sim.match import match
    r4, r2 = Rules("foster", 4), Rules("foster", 2)

    def strip(d: dict) -> dict:
        return {k: v for k, v in d.items() if k not in ("elapsed_s", "compile_s", "threads")}

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=50) as cluster:
        at = {"scheduler": cluster.scheduler_address}
        for kw in ({}, {"stop_early": False}):
            plain = match(r4, "heuristic", "random", deals=40000, seed=3, threads=2, **kw)
            dask = match(r4, "heuristic", "random", deals=40000, seed=3, **at, **kw)
            assert strip(dask.to_dict()) == strip(plain.to_dict())
        plain_g = simulate_games(r2, "heuristic", n_games=1000, seed=4, threads=2)
        dask_g = simulate_games(r2, "heuristic", n_games=1000, seed=4, chunk=100, **at)
        assert strip(dask_g.to_dict()) == strip(plain_g.to_dict())
        assert f"s on Dask {at['scheduler']}, 2 worker threads" in dask_g.to_text()
        e0 = equity_table(r2, "random", n_hands=4000, seed=2, threads=2)
        e1 = equity_table(r2, "random", n_hands=4000, seed=2, chunk=500, **at)
        assert np.array_equal(e0.V, e1.V) and e1.n_hands == 4000


# ------------------------------------------------------------------------------- review fixes
def _server(answer: bytes | None):
    """A TCP server on a free port that accepts connections and sends ``answer`` (None:
    never answers): what a scheduler address that is not a Dask scheduler looks like."""
    import socket
    import threading
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    held = []

    def serve():
        while True:
            try:
                c, _ = srv.accept()
            except OSError:
                return
            held.append(c)
            if answer is not None:
                c.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    return srv, f"tcp://127.0.0.1:{srv.getsockname()[1]}"


@pytest.mark.parametrize("answer, why", [(None, "cannot connect (tcp://127.0.0.1:"),
                                         (b"\xff" * 64, "not a Dask scheduler"),
                                         (b"HTTP/1.0 400 Bad\r\n\r\n", "not a Dask scheduler")])
@pytest.mark.serial     # times itself
def test_a_scheduler_address_that_is_no_scheduler_is_one_line_in_bounded_time(
        monkeypatch, answer, why):
    pytest.importorskip("distributed")
    monkeypatch.setattr(engine, "SCHEDULER_TIMEOUT", 1.5)
    srv, addr = _server(answer)
    try:
        t0 = time.perf_counter()
        r = CliRunner().invoke(cli, ["simulate", "--deals", "1000", "--scheduler", addr])
        took = time.perf_counter() - t0
    finally:
        srv.close()
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert lines[0] == f"connecting to the Dask scheduler at {addr} ..."
    assert len(lines) == 2 and lines[1].startswith(f"error: scheduler: {why}"), r.output
    assert took < 10


def test_ctrl_c_to_the_process_group_of_a_local_cluster_run_is_quiet(tmp_path):
    """A terminal's Ctrl-C reaches the worker processes too: they ignore it (no worker
    tracebacks); the run keeps its chunks, says how to finish and exits 130."""
    pytest.importorskip("distributed")
    rd = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "catchten_sim.cli", "simulate", "--deals",
                          "50000000", "--chunk", "20000", "--workers", "2", "--run-dir",
                          str(rd)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True, text=True, env=env, cwd=ROOT)
    try:
        deadline = time.time() + 120
        while not list((rd / "chunks").glob("chunk-*.parquet")) and time.time() < deadline:
            time.sleep(0.2)
        assert p.poll() is None
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    lines = [x for x in messages(err) if x.strip()]
    assert lines[-1].endswith(f"finish with: catchten resume {rd}"), err
    assert len(lines) <= 3, err


@pytest.mark.parametrize("opts", [["--workers", "0"], ["--workers", "-1"],
                                  ["--workers", "1000"],
                                  ["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"]])
@pytest.mark.parametrize("cmd", [["simulate", "--deals", "1000"],
                                 ["simulate", "--games", "10"],
                                 ["match", "heuristic", "random", "--deals", "100"],
                                 ["equity", "--hands", "1000"],
                                 ["report", "--deals", "1000"]])
def test_bad_dask_options_leave_no_run_directory(tmp_path, cmd, opts):
    d = tmp_path / "run"
    res = CliRunner().invoke(cli, [*cmd, *opts, "--run-dir", str(d), "--no-progress"])
    assert res.exit_code == 2 and res.stderr.startswith("error: workers: "), res.output
    assert not d.exists()


def test_pimc_on_a_cluster_is_refused_by_the_option_name_before_a_run_directory(tmp_path):
    d = tmp_path / "run"
    res = CliRunner().invoke(cli, ["match", "pimc", "random", "--deals", "100", "--workers",
                                   "2", "--run-dir", str(d), "--no-progress"])
    assert res.exit_code == 2
    assert res.stderr.startswith("error: workers: pimc seats run on this machine")
    assert not d.exists()


def test_the_engine_fingerprint_follows_the_sources_of_the_kind(tmp_path, monkeypatch):
    root = tmp_path / "pkg"
    (root / "_kernels").mkdir(parents=True)
    for name in ("_kernels/engine.py", "rules.py", "simulate.py", "match.py", "cli.py"):
        (root / name).write_text(f"# {name}\n")
    monkeypatch.setattr(dirs, "__file__", str(root / "run" / "dirs.py"))

    def fp(kind):
        dirs._fingerprint.cache_clear()
        return runner.engine_fingerprint(kind)
    sim, mat = fp("simulate"), fp("match")
    assert sim != mat
    (root / "cli.py").write_text("# the command line only\n")
    assert (fp("simulate"), fp("match")) == (sim, mat)
    (root / "match.py").write_text("# the match task changed\n")
    assert (fp("simulate"), fp("match")) == (sim, fp("match")) and fp("match") != mat
    (root / "_kernels/engine.py").write_text("# a kernel changed\n")
    assert fp("simulate") != sim
    dirs._fingerprint.cache_clear()


def test_report_from_a_report_directory_points_to_summarize_and_resume(tmp_path,
                                                                         blank_figures):
    d = tmp_path / "rep"
    args = ["report", "--deals", "1000", "--no-sweep-variants", "--no-sweep-players",
            "--no-compare-policies", "--format", "png", "--out", str(tmp_path / "o"),
            "--run-dir", str(d), "--no-progress"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    res = CliRunner().invoke(cli, ["report", "--from", str(d), "--out", str(tmp_path / "p")])
    # the directory is given with --from, so the error names --from
    _one_line(res, "not a simulation", f"catchten summarize {d}", f"catchten resume {d}",
              field="from")


@pytest.mark.parametrize("kind", ["simulate", "games", "match"])
def test_summarize_json_is_the_same_bytes_on_every_read(tmp_path, kind):
    """No timings of the read: the run's own compute time (its sessions') instead."""
    d = tmp_path / "run"
    cmd = {"simulate": ["simulate", "--deals", "4000", "--chunk", "1000", "-p", "random"],
           "games": ["simulate", "--games", "200", "-n", "2", "--chunk", "50"],
           "match": ["match", "heuristic", "random", "--deals", "2000", "--pilot", "0",
                     "--no-early-stop"]}[kind]
    assert CliRunner().invoke(cli, [*cmd, "--run-dir", str(d), "--no-progress"]).exit_code \
        in (0, None)
    reads = [CliRunner().invoke(cli, ["summarize", str(d), "--json", "--sessions"])
             for _ in range(2)]
    assert reads[0].exit_code == 0, reads[0].output
    assert reads[0].stdout == reads[1].stdout
    got = json.loads(reads[0].stdout)
    assert not set(got) & {"threads", "elapsed_s", "compile_s", "deals_per_s"}
    plain = json.loads(CliRunner().invoke(cli, ["summarize", str(d), "--json"]).stdout)
    assert not set(plain) & {"compute_s", "run_on", "threads", "elapsed_s"}
    assert plain == {k: v for k, v in got.items() if k not in ("compute_s", "run_on")}
    sessions = json.loads((d / "sessions.json").read_text())
    assert got["compute_s"] == round(sum(s["compute_s"] for s in sessions), 3) > 0
    assert got["run_on"] == sessions and sum(s["items"] for s in sessions) > 0


def test_a_second_run_in_the_same_directory_is_refused(tmp_path):
    """Two runs of one run directory at once: the second is refused with one line; the
    lock goes with its holder (a killed run leaves none behind)."""
    d = tmp_path / "run"
    base = ["simulate", "--deals", "200", "--chunk", "100", "--run-dir", str(d),
            "--no-progress", "--policy", "random", "--seed", "3"]
    assert CliRunner().invoke(cli, base).exit_code == 0
    (d / "chunks" / "chunk-00000001.parquet").unlink()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(d / '.lock')!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "os.pwrite(fd, f'{os.getpid()}\\n'.encode(), 0)\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        _one_line(CliRunner().invoke(cli, ["resume", str(d)]), "in use",
                  f"pid {holder.pid}")
    finally:
        holder.kill()
        holder.wait()
    res = CliRunner().invoke(cli, ["resume", str(d), "--no-progress"])     # lock gone
    assert res.exit_code == 0, res.output


def test_resume_with_a_time_limit_stops_resumable_then_finishes(tmp_path):
    """``resume --time``: stops after the chunk that ends past the limit (here at once:
    one chunk), says so on stderr without an interrupted exit code, and a later resume
    finishes with the numbers of an uninterrupted run."""
    rules = Rules("foster", 3)
    whole = simulate(rules, "random", n_deals=3000, seed=3, chunk=500, threads=1)
    d = tmp_path / "run"
    simulate(rules, "random", n_deals=3000, seed=3, chunk=500, run_dir=d)
    files = sorted((d / "chunks").glob("chunk-*.parquet"))
    for f in files[4:]:
        f.unlink()
    res = CliRunner().invoke(cli, ["resume", str(d), "--time", "1e-9", "--json",
                                   "--no-progress", "--threads", "1"])
    assert res.exit_code == 0, res.output
    assert "time limit:" in res.stderr and f"catchten resume {d}" in res.stderr
    assert len(list((d / "chunks").glob("chunk-*.parquet"))) == 5
    assert json.loads(res.stdout)["interrupted"] is True
    assert numbers(resume(d, threads=2)) == numbers(whole)
    for bad, why in (("0", "out of range"), ("-1", "out of range"),
                     ("inf", "not a finite number"), ("nan", "not a finite number")):
        r = CliRunner().invoke(cli, ["resume", str(d), "--time", bad])
        assert r.exit_code == 2 and r.stderr.startswith(f"error: time: {why}"), r.stderr


def test_a_time_limit_ends_every_run_inside_it_after_a_chunk():
    rules = Rules("foster", 4)
    with runner.time_limit(1e-9) as lim:
        res = simulate(rules, "random", n_deals=5000, seed=1, chunk=1000, threads=1)
    assert lim.hit and res.interrupted and res.n_deals == 16       # the plan's first chunk
    with runner.time_limit(600) as lim:
        res = simulate(rules, "random", n_deals=5000, seed=1, chunk=1000, threads=1)
    assert not lim.hit and not res.interrupted and res.n_deals == 5000


def test_the_scheduler_probe_works_inside_an_event_loop():
    """A notebook calls the library from inside a running event loop."""
    import asyncio
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None,
                                  host="127.0.0.1", protocol="tcp") as cluster:
        async def inside():
            runner.probe_scheduler(cluster.scheduler_address, timeout=5)
        asyncio.run(inside())


def test_simulate_report_with_a_run_dir_is_rebuilt_by_resume(tmp_path, blank_figures):
    d, rep = tmp_path / "run", tmp_path / "rep"
    args = ["simulate", "--deals", "4000", "--chunk", "1000", "--policy", "random",
            "--run-dir", str(d), "--report", str(rep), "--no-progress"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    whole = json.loads((rep / "report.json").read_text())
    sorted((d / "chunks").glob("chunk-*.parquet"))[-1].unlink()
    (rep / "report.json").unlink()
    res = CliRunner().invoke(cli, ["resume", str(d), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert f"files written to {rep}" in " ".join(messages(res.stderr))
    again = json.loads((rep / "report.json").read_text())
    assert again["runs"][0]["deals"] == whole["runs"][0]["deals"] == 4000
    assert again["runs"][0]["p_caught"] == whole["runs"][0]["p_caught"]
    # finished, its report newer than the chunks: neither made again nor its sweeps run
    stamp = (rep / "report.json").stat().st_mtime_ns
    res = CliRunner().invoke(cli, ["resume", str(d), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert messages(res.stderr.strip()) == [
        f"{d}: the run is already finished (nothing to run); its result:",
        f"report: {rep} is newer than the run's chunks: not made again"]
    assert (rep / "report.json").stat().st_mtime_ns == stamp


# ------------------------------------------------- review fixes: no stray dirs, Ctrl-C hint
@pytest.mark.parametrize("address", ["notaurl", "tcp://127.0.0.1:1"])
def test_a_scheduler_that_cannot_start_the_run_leaves_no_run_directory(tmp_path, monkeypatch,
                                                                         address):
    pytest.importorskip("distributed")
    monkeypatch.setattr(engine, "SCHEDULER_TIMEOUT", 2.0)
    d = tmp_path / "run"
    res = CliRunner().invoke(cli, ["simulate", "--deals", "1000", "--no-progress",
                                   "--run-dir", str(d), "--scheduler", address])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.stderr.strip().splitlines()
             if ln.startswith("error:")]
    assert len(lines) == 1 and lines[0].startswith("error: scheduler:"), res.stderr
    assert not d.exists()


def test_ctrl_c_after_chunks_were_kept_names_the_run_directory(tmp_path, monkeypatch):
    import catchten_sim.cli_kit as cli_mod
    monkeypatch.setattr(dirs, "LAST_RUN_DIR", None)
    assert "nothing to show" in cli_mod.interrupted_line()
    d = tmp_path / "run"
    monkeypatch.setattr(dirs, "LAST_RUN_DIR", d)
    line = cli_mod.interrupted_line()
    assert line.startswith("error: interrupted") and f"catchten resume {d}" in line


# ------------------------------------------- leftovers of issue 12: waits, finished dirs
def test_a_scheduler_with_no_worker_says_it_waits_then_runs_when_one_joins(monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(engine, "WORKER_NOTICE", 0.5)
    rules = Rules("foster", 4)
    threads = simulate(rules, "random", n_deals=4000, seed=3, chunk=1000, threads=1)
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None,
                                  host="127.0.0.1", protocol="tcp",
                                  silence_logs=50) as cluster:
        addr = cluster.scheduler_address
        heard = []

        def say(msg):
            heard.append(msg)
            if msg.startswith("waiting for workers"):
                cluster.scale(1)           # the user starts a worker

        import threading
        late = threading.Timer(30, cluster.scale, (1,))     # no notice: fail, never hang
        late.start()
        try:
            with runner.notices(say):
                got = simulate(rules, "random", n_deals=4000, seed=3, chunk=1000,
                               scheduler=addr)
        finally:
            late.cancel()
    waits = [m for m in heard if m.startswith("waiting")]
    assert waits == [f"waiting for workers at {addr}: none has joined in 0.5 s (start one: "
                     f"dask worker {addr}; Ctrl-C stops)"], heard
    assert numbers(got) == numbers(threads)


def test_a_cluster_with_workers_says_nothing_of_waiting(monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(engine, "WORKER_NOTICE", 0.01)
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None,
                                  host="127.0.0.1", protocol="tcp",
                                  silence_logs=50) as cluster:
        heard = []
        with runner.notices(heard.append):
            simulate(Rules("foster", 4), "random", n_deals=2000, seed=3, chunk=1000,
                     scheduler=cluster.scheduler_address)
    assert not [m for m in heard if m.startswith("waiting")], heard


def test_processes_started_while_a_local_cluster_starts_never_see_ctrl_c():
    """A terminal's Ctrl-C reaches a local cluster's worker processes while they still
    import (before their preload ignores it): started inside ``sigint_deferred(children=
    True)`` they inherit SIGINT blocked, and the run's own Ctrl-C is held to the end."""
    import multiprocessing
    import threading
    ctx = multiprocessing.get_context("spawn")
    codes = []

    def start():                    # distributed starts its processes from its own threads
        p = ctx.Process(target=signal.raise_signal, args=(signal.SIGINT,))
        p.start()
        p.join(60)
        codes.append(p.exitcode)

    with pytest.raises(KeyboardInterrupt):
        with runner.sigint_deferred(children=True):
            t = threading.Thread(target=start)
            t.start()
            os.kill(os.getpid(), signal.SIGINT)     # held until the block ends
            t.join(60)
            assert codes == [0]     # the child's own SIGINT stayed blocked: no traceback
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    assert signal.SIGINT not in mask


def test_resume_of_a_finished_run_says_so_and_prints_its_summary(tmp_path):
    """Nothing runs, so no "(0.4 s, 2 threads)" header of this read: one line says the run
    is finished, then the result as `summarize` prints it (JSON: the same bytes)."""
    d = tmp_path / "s"
    args = ["simulate", "--deals", "4000", "--chunk", "1000", "--policy", "random",
            "--run-dir", str(d), "--no-progress"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    sessions = (d / "sessions.json").read_text()
    res = CliRunner().invoke(cli, ["resume", str(d), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert messages(res.stderr.strip()) == \
        [f"{d}: the run is already finished (nothing to run); its result:"]
    assert "read from a run directory" in res.stdout.splitlines()[0]
    assert " s, " not in res.stdout.splitlines()[0]
    assert res.stdout == CliRunner().invoke(cli, ["summarize", str(d)]).stdout
    js = CliRunner().invoke(cli, ["resume", str(d), "--json", "--no-progress"])
    assert js.exit_code == 0
    assert js.stdout == CliRunner().invoke(cli, ["summarize", str(d), "--json"]).stdout
    assert (d / "sessions.json").read_text() == sessions      # no session was logged
    for bad in (["--threads", "0"], ["--workers", "0"]):      # still bad input
        assert CliRunner().invoke(cli, ["resume", str(d), *bad]).exit_code == 2


def test_resume_of_a_match_that_stopped_at_a_look_says_it_is_finished(tmp_path):
    d = tmp_path / "m"
    args = ["match", "heuristic", "random", "--deals", "8000", "--pilot", "400",
            "--run-dir", str(d), "--no-progress"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    manifest = json.loads((d / "manifest.json").read_text())
    assert len(list((d / "chunks").glob("chunk-*"))) < manifest["plan"]["chunks"]
    res = CliRunner().invoke(cli, ["resume", str(d), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert messages(res.stderr.strip()) == \
        [f"{d}: the run is already finished (nothing to run); its result:"]
    assert "stop: separated" in res.stdout
    assert res.stdout == CliRunner().invoke(cli, ["summarize", str(d)]).stdout


def test_resume_of_a_finished_report_draws_again_only_what_needs_it(tmp_path, blank_figures):
    d, out = tmp_path / "r", tmp_path / "out"
    args = ["report", "-n", "3", "--deals", "2000", "--sweep-deals", "1000",
            "--no-sweep-variants", "--no-sweep-players", "--format", "png", "--out",
            str(out), "--run-dir", str(d), "--no-progress", "--chunk", "500"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    stamps = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    res = CliRunner().invoke(cli, ["resume", str(d), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert messages(res.stderr.strip()) == [
        f"{d}: the report is already finished and its files in {out} are newer than its "
        f"runs: nothing to run or draw (delete {out / 'report.json'} to draw them again)"]
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == stamps
    (out / "fig01_summary.png").unlink()
    res = CliRunner().invoke(cli, ["resume", str(d), "--no-progress"])
    assert res.exit_code == 0, res.output
    assert messages(res.stderr)[0] == (f"{d}: every run is finished; drawing the report "
                                          f"again ({out / 'fig01_summary.png'} is missing)")
    assert (out / "fig01_summary.png").is_file()
    # a run's chunk lost: the resume runs it and draws the report, as before
    chunk = sorted((d / "runs" / "00-main" / "chunks").glob("chunk-*"))[-1]
    chunk.unlink()
    res = CliRunner().invoke(cli, ["resume", str(d), "--no-progress"])
    assert res.exit_code == 0 and "already finished" not in res.stderr, res.output
    assert chunk.is_file()


def test_compile_time_is_reported_apart_and_left_out_of_the_speed(monkeypatch, capsys):
    """A first run's compile (a cold numba cache) is named in the header and in
    ``compile_s``, and ``deals_per_s`` counts the deals' time only (review of the solver and
    PIMC, Low 9: the first run's header time included compiling)."""
    import dataclasses
    import io

    from rich.console import Console

    from catchten_sim import compile_notice
    from catchten_sim.games import simulate_games
    from catchten_sim.text import print_simulation

    def clock(*readings):
        """A fake compile clock: these readings in turn, then the last one again."""
        it = iter(readings)
        last = [readings[-1]]

        def read():
            last[0] = next(it, last[0])
            return last[0]
        monkeypatch.setattr(compile_notice, "compile_seconds", read)

    clock(100.0, 103.5, 200.0, 201.25)                  # 3.5 s, then 1.25 s compiling
    res = simulate(Rules("foster", 4), "random", n_deals=4000, seed=3, threads=1)
    assert res.compile_s == pytest.approx(min(3.5, res.elapsed_s))
    d = res.to_dict()
    assert d["compile_s"] == round(res.compile_s, 3)
    real = res.elapsed_s - res.compile_s
    if real > 0:
        assert d["deals_per_s"] == round(4000 / real)
    buf = io.StringIO()
    print_simulation(dataclasses.replace(res, elapsed_s=5.0, compile_s=3.5),
                     Console(file=buf, width=120))
    assert "(5.0 s, 3.5 s of it compiling the engine, 1 thread, deal" in buf.getvalue()
    g = simulate_games(Rules("foster", 4), "random", n_games=20, seed=3, threads=1)
    assert g.compile_s == pytest.approx(min(1.25, g.elapsed_s))
    text = dataclasses.replace(g, elapsed_s=2.0, compile_s=1.25).to_text()
    assert text.endswith("2.00 s on 1 thread(s), 1.2 s of it compiling the engine")
    assert "compiling" not in dataclasses.replace(g, compile_s=0.0).to_text()
    # advice: odds and advise say it too
    from catchten_sim.advise import advise
    from catchten_sim.odds import odds
    from catchten_sim.cards import parse_cards
    from catchten_sim.text import print_advice
    hand = parse_cards("JS AS 9S KH QH 7D 8C 9C TC".split())
    clock(10.0, 10.5)
    o = odds(Rules("foster", 4), hand, parse_cards(["7S"])[0], seat=0, dealer=3,
             n_deals=2000, seed=2)
    assert o.compile_s == pytest.approx(min(0.5, o.elapsed_s))
    assert o.to_dict()["compile_s"] == round(o.compile_s, 3)
    clock(10.0, 12.0)
    a = advise(Path(__file__).parent.parent / "examples" / "position-lead.json",
               samples=2000, time_limit=None, seed=2, threads=1)
    assert a.compile_s == pytest.approx(min(2.0, a.elapsed_s))
    assert a.to_dict()["compile_s"] == round(a.compile_s, 3)
    capsys.readouterr()
    print_advice(dataclasses.replace(a, elapsed_s=3.0, compile_s=2.0))
    # the header wraps at 80 columns; the words must still be there, in order
    assert ", seed 2, 3.00 s, 2.0 s of it compiling the engine" in " ".join(
        capsys.readouterr().out.split())
    # a match: compile time named, and not counted against its time limit
    from catchten_sim.match import match
    clock(0.0, 1000.0)
    m = match(Rules("foster", 4), "random", "heuristic", deals=400, seed=1, pilot=0,
              stop_early=False, time_limit=50.0, threads=1)
    assert m.stop == "deals" and m.compile_s == pytest.approx(min(1000.0, m.elapsed_s))
    assert m.to_dict()["compile_s"] == round(m.compile_s, 3)
    text = dataclasses.replace(m, elapsed_s=40.0, compile_s=35.0).to_text()
    assert "; 40.0 s, 35.0 s of it compiling the engine)" in text
    # a warm run: nothing compiled, nothing said
    clock(7.0)
    warm = simulate(Rules("foster", 4), "random", n_deals=4000, seed=3, threads=1)
    assert warm.compile_s == 0.0 and warm.to_dict()["deals_per_s"] == round(
        4000 / warm.elapsed_s)
    buf = io.StringIO()
    print_simulation(warm, Console(file=buf, width=120))
    assert "compiling" not in buf.getvalue()
