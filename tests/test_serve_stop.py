"""Ctrl-C on ``catchten serve`` while advice runs: every running or waiting job is
cancelled first (its worker interrupted, as by the CLI's Ctrl-C), each open request ends
with its final JSON (an advice what it finished, else ``error: stopped: ...``, HTTP 503),
and the server prints one line, ``catchten serve: stopped (2 advice runs cancelled)``:
no traceback, no uvicorn error, exit 0, promptly."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from catchten_sim.serve import stopped_words
from catchten_sim.serve.pool import STOPPED_STATUS, Pool

pytestmark = pytest.mark.xdist_group("serve_stop")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = json.loads((ROOT / "examples" / "position-lead.json").read_text())


def _french52_opening() -> dict:
    """french52 at the opening lead: double-dummy takes seconds a deal."""
    d = json.loads((ROOT / "tests" / "cases" / "score" / "french52_04.json").read_text())
    seat = (d["dealer"] + 1) % 4
    return {"rules": "french52", "players": 4, "dealer": d["dealer"], "seat": seat,
            "hand": d["hands"][seat], "turnup": d["turnup"], "play": []}


def _post(url: str, body: dict) -> tuple[int, str, str]:
    """``(status, content type, body)``; never raises on an HTTP error status."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers["content-type"], r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers["content-type"], e.read().decode()


def test_ctrl_c_while_advice_runs_stops_cleanly():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []))}
    proc = subprocess.Popen([sys.executable, "-m", "catchten_sim.cli", "serve",
                             "--no-browser", "--port", str(port), "--workers", "2"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        t0 = time.monotonic()
        while True:
            assert proc.poll() is None, proc.stdout.read()
            try:
                with urllib.request.urlopen(base + "/api/status", timeout=5) as r:
                    if not json.loads(r.read())["warming"]:
                        break
            except OSError:
                pass
            assert time.monotonic() - t0 < 600, "did not warm up"
            time.sleep(0.2)
        body = {"position": _french52_opening(), "options": {"evaluator": "dd", "time": 30}}
        out: dict = {}
        threads = [threading.Thread(target=lambda k=k: out.__setitem__(
            k, _post(base + k, body))) for k in ("/api/advise", "/api/advise/stream")]
        for t in threads:
            t.start()
        while True:                                      # both running on a worker
            with urllib.request.urlopen(base + "/api/status", timeout=5) as r:
                if json.loads(r.read())["running"] == 2:
                    break
            assert time.monotonic() - t0 < 660
            time.sleep(0.1)
        time.sleep(1.5)
        t1 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        text, _ = proc.communicate(timeout=30)
        took = time.monotonic() - t1
        for t in threads:
            t.join(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, text
    assert "Traceback" not in text and "ERROR" not in text and "Cancel" not in text, text
    assert text.strip().splitlines()[-1] == \
        "catchten serve: stopped (2 advice runs cancelled)", text
    assert took < 8, took
    # each request ended with its final JSON: the plain one a JSON answer, the stream
    # a last event (an advice stopped so returns the deals it finished, or says why not)
    status, ctype, plain = out["/api/advise"]
    assert ctype.startswith("application/json"), (status, plain)
    d = json.loads(plain)
    assert (status == 200 and d["stop"] == "interrupted" and d["partial"]) or \
        (status == 503 and d["error"].startswith("error: stopped: ")), (status, d)
    status, ctype, stream = out["/api/advise/stream"]
    assert status == 200 and ctype.startswith("text/event-stream")
    last = stream.strip().split("\n\n")[-1].splitlines()
    assert last[0] in ("event: result", "event: error"), stream[-300:]
    json.loads(last[1].removeprefix("data: "))


def test_a_stop_ends_waiting_and_running_jobs_with_their_final_event():
    """``Pool.stop_jobs``: the running job is interrupted (an advice returns what it
    finished), the waiting one ends as ``stopped`` (HTTP 503), none is left open, and no
    job is taken afterwards."""
    endless = {"position": EXAMPLE, "options": {"samples": 10 ** 7, "early_stop": False,
                                                "time": 60, "exact_max": 0}}

    async def go():
        pool = Pool(workers=1, queue=2, threads=1, warm=False)
        await pool.start()
        try:
            run = pool.submit("advise", endless, 60)
            wait = pool.submit("deal", {"seed": 1}, 30)
            while (await asyncio.wait_for(run.events.get(), 60))[0] != "progress":
                pass
            assert pool.job_state(wait) == "waiting"
            counts = await pool.stop_jobs()
            try:
                pool.submit("deal", {"seed": 2}, 30)
                late = None
            except Exception as exc:           # Busy: the server is stopping
                late = str(exc)
            return counts, run.final, wait.final, late
        finally:
            await pool.close()
    counts, run, wait, late = asyncio.run(go())
    assert counts == {"advise": 1, "deal": 1}
    assert run[0] == "result" and run[1]["stop"] == "interrupted" or \
        run[:2] == ("error", STOPPED_STATUS), run
    assert wait[:2] == ("error", STOPPED_STATUS) and wait[2].startswith("stopped: "), wait
    assert late == "the server is stopping"
    assert stopped_words(counts) == " (1 advice, 1 deal cancelled)"
    assert stopped_words({}) == ""


def test_a_cancelled_solve_stops_inside_its_kernel():
    """A cancelled solve (a client gone) stops within a few thousand nodes of the
    interrupt (issue 26: the page's solve watches its interrupts as ``catchten solve``
    does): the job ends "cancelled" within a second or two and its worker lives on (it was
    killed after KILL_AFTER_S = 10 s before)."""
    from test_serve import HARD_F52, _with_pool

    async def work(pool):
        job = pool.submit("solve", {"record": HARD_F52}, 600.0)
        while (await asyncio.wait_for(job.events.get(), 120))[0] != "started":
            pass
        await asyncio.sleep(2)          # inside its kernel
        pid = pool.workers[0].proc.pid
        t0 = time.monotonic()
        job.cancel()
        final = await asyncio.wait_for(job.result(), 60)
        return final, time.monotonic() - t0, pid, pool.workers[0].proc.pid
    final, took, pid, pid_after = _with_pool(work)
    assert final[0] == "cancelled", final
    assert took < 5, took            # (was KILL_AFTER_S = 10 s and a new worker)
    assert pid_after == pid


def test_the_job_after_a_killed_worker_runs(monkeypatch):
    """A worker that does not answer its interrupt (here: stopped with SIGSTOP while it
    solves) is killed after KILL_AFTER_S and a new one started. The next jobs run on the
    new process: they were killed at once, each one failing with 'the worker process
    stopped' (the new worker kept the old interrupt's time; a solve of about a second
    outlasts the watchdog's half-second look)."""
    from catchten_sim.serve import pool as pool_mod
    from test_serve import HARD_F52, _with_pool
    quick = json.loads((Path(__file__).parent / "cases" / "score" / "french52_04.json")
                       .read_text())   # an opening lead that solves in about a second

    async def work(pool):
        job = pool.submit("solve", {"record": HARD_F52}, 600.0)
        while (await asyncio.wait_for(job.events.get(), 120))[0] != "started":
            pass
        await asyncio.sleep(1)
        os.kill(pool.workers[0].proc.pid, signal.SIGSTOP)   # deaf to its interrupt
        job.cancel()
        assert (await asyncio.wait_for(job.result(), 60))[0] == "cancelled"
        nxt = pool.submit("solve", {"record": {**quick, "play": []}}, 600.0)
        return [await asyncio.wait_for(nxt.result(), 300)]

    monkeypatch.setattr(pool_mod, "KILL_AFTER_S", 1.0)
    finals = _with_pool(work)
    assert [f[0] for f in finals] == ["result"], finals
