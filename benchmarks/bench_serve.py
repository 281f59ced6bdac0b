"""Benchmark of ``catchten serve`` against issue 24's targets, warm (numba cache on disk).

Runs the server in a subprocess and the page in headless Chromium (Debian's chromium via
Playwright), and measures, each a median of ``--runs`` runs with the baseline beside it:

- the page's first paint (navigation start to first-contentful-paint) after the server is up;
- first advice values on screen for the README's 4-player opening lead with the page's
  defaults (rollouts; dd), from the click on Advise; baseline: the same ``advise()`` calls
  in this process (the CLI's path, no server);
- all-hands mode, 4 players: a card clicked to its new double-dummy values on screen;
  baseline: the solve alone (``/api/solve`` round trip);
- 20 concurrent advice requests: each answered (200) or refused (503), none lost;
- the server's memory (the server process and its workers, RSS) before and after 1,000
  requests.

    PYTHONPATH=$PWD python3 benchmarks/bench_serve.py --runs 5
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = json.loads((ROOT / "examples" / "position-lead.json").read_text())
#: marks in the page (performance.now(), ms): the last click, the first rollout and dd values
#: in the DOM, and the next "done" after "working" (the DOM change; the paint follows in the
#: next frame). Measured in the page: Playwright's own round trips are slow on a loaded
#: machine (the workers hold every core) and are not what the player sees.
MARKS = """
window.__m = {};
document.addEventListener('click', () => { window.__m = {click: performance.now()}; }, true);
new MutationObserver(() => {
  const m = window.__m; if (!m.click) return;
  const now = performance.now();
  if (!m.ro && document.querySelector('#cards tr[data-rollout]')) m.ro = now - m.click;
  if (!m.dd && document.querySelector('#cards tr[data-dd-so-far], #cards tr[data-dd]'))
    m.dd = now - m.click;
  const st = document.body && document.body.dataset.state;
  if (st === 'working') m.w = true;
  if (m.w && st === 'done' && !m.done) m.done = now - m.click;
}).observe(document, {subtree: true, childList: true, attributes: true});
"""
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def rss_kb(pid: int) -> int:
    """RSS of ``pid`` and its children (kB)."""
    total = 0
    pids = [pid]
    try:
        out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                             text=True).stdout.split()
        pids += [int(p) for p in out]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def med(xs: list[float]) -> str:
    return f"{statistics.median(xs):.3f} s (runs: {', '.join(f'{x:.3f}' for x in xs)})"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--requests", type=int, default=1000)
    a = ap.parse_args()
    from playwright.sync_api import sync_playwright
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "catchten_sim.cli", "serve",
                             "--no-browser", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    up = None
    while True:
        try:
            with urllib.request.urlopen(base + "/api/status", timeout=5) as r:
                st = json.loads(r.read())
            up = up or time.monotonic() - t0
            if not st["warming"]:
                break
        except OSError:
            pass
        time.sleep(0.1)
    warm = time.monotonic() - t0
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores (shared with other jobs: timings "
          "are upper bounds)")
    print(f"server up (first /api/status answer): {up:.2f} s; warm (workers ready): "
          f"{warm:.2f} s")
    try:
        # baseline: the same advice in this process (the CLI's path)
        from catchten_sim import advise
        advise(EXAMPLE, samples=300)
        advise(EXAMPLE, evaluator="dd", samples=8, exact_max=0)
        base_ro, base_dd = [], []
        for _ in range(a.runs):
            t = time.perf_counter()
            advise(EXAMPLE, samples=20000, time_limit=20)
            base_ro.append(time.perf_counter() - t)
            t = time.perf_counter()
            advise(EXAMPLE, evaluator="dd", samples=1000, time_limit=20)
            base_dd.append(time.perf_counter() - t)
        fcp, ro, dd, done, click, solve_rt = [], [], [], [], [], []
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for _ in range(a.runs):
                page = b.new_page(viewport={"width": 1280, "height": 800})
                page.add_init_script(MARKS)
                page.goto(base + "/")
                page.wait_for_selector("#grid .c")
                fcp.append(page.evaluate("performance.getEntriesByName("
                                         "'first-contentful-paint')[0].startTime") / 1000)
                for c in EXAMPLE["hand"]:
                    page.click(f'[data-grid-card="{c}"]')
                page.click('.tab[data-target="turnup"]')
                page.click('[data-grid-card="7S"]')
                page.click("#advise")
                page.wait_for_selector('body[data-state="done"]', timeout=120_000)
                m = page.evaluate("window.__m")
                ro.append(m["ro"] / 1000)
                dd.append(m["dd"] / 1000)
                done.append(m["done"] / 1000)
                # all hands: deal, then click the best card
                page.click("#load-box summary")
                page.fill("#deal-seed", "4")
                page.click("#deal")
                page.wait_for_selector("#hands button[data-dd]")
                page.wait_for_selector('body[data-state="done"]')
                card = page.get_attribute("#hands button.best", "data-card")
                page.click(f'#hands button[data-card="{card}"]')
                page.wait_for_function(
                    f"!document.querySelector('#hands [data-card=\"{card}\"]') && "
                    "document.querySelector('#hands button[data-dd]') && window.__m.done")
                click.append(page.evaluate("window.__m.done") / 1000)
                page.close()
            b.close()
        rec = post(base + "/api/deal", {"seed": 4})[1]
        for i in range(a.runs):
            t = time.perf_counter()
            post(base + "/api/solve", {"record": {**rec, "play": rec["play"][:0]},
                                       "options": {"line": i < 0}})
            solve_rt.append(time.perf_counter() - t)
        print(f"first paint (navigation to first-contentful-paint): {med(fcp)}")
        print(f"first advice values, 4-player opening lead, rollouts (page defaults: "
              f"samples 20000, seed 1): {med(ro)}; baseline advise() in-process: "
              f"{med(base_ro)}")
        print(f"first dd values (its first 16 deals, after the rollouts): {med(dd)}; "
              f"advice done (dd's full run, dd samples 1000, and the words): {med(done)}; "
              f"baseline advise(evaluator='dd') in-process alone: {med(base_dd)}")
        print(f"all hands, 4 players: click to new dd values on screen: {med(click)}; "
              f"baseline /api/solve round trip of the deal at its start: {med(solve_rt)}")

        # 20 concurrent advice requests
        out: list[int] = []
        body = {"position": EXAMPLE, "options": {"samples": 5000, "seed": 2}}

        def go() -> None:
            out.append(post(base + "/api/advise", body)[0])
        ts = [threading.Thread(target=go) for _ in range(20)]
        t = time.perf_counter()
        for th in ts:
            th.start()
        for th in ts:
            th.join()
        print(f"20 concurrent advice requests: {len(out)} answered in "
              f"{time.perf_counter() - t:.2f} s: {out.count(200)} x 200, {out.count(503)} "
              f"x 503, other: {[c for c in out if c not in (200, 503)]}")

        # memory over many requests
        before = rss_kb(proc.pid)
        small = {"position": EXAMPLE, "options": {"samples": 300}}
        codes = []
        t = time.perf_counter()
        for i in range(a.requests):
            if i % 2:
                codes.append(post(base + "/api/advise", small)[0])
            else:
                codes.append(post(base + "/api/solve", {"record": json.loads(
                    (ROOT / "tests/cases/dd/foster4_left4_lead_01.json").read_text())})[0])
        after = rss_kb(proc.pid)
        print(f"{a.requests} requests (advise and solve, one at a time) in "
              f"{time.perf_counter() - t:.1f} s, all 200: {set(codes) == {200}}; RSS of "
              f"server and workers: {before / 1024:.0f} MB before, {after / 1024:.0f} MB "
              "after")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)


if __name__ == "__main__":
    main()
