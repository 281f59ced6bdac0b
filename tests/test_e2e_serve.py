"""End to end: ``catchten serve`` in a subprocess, the page in a real headless Chromium
(Debian's ``chromium`` driven by Playwright for Python through ``executable_path``; no
browser download). Without a browser these tests skip with the reason, except under
``CI=true``, where a missing browser fails.

Screenshots at 1280x800 and 390x844 go to ``artifacts/e2e/`` (``CATCHTEN_ARTIFACTS``
overrides), with the measured times in ``timings.json``.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest

from catchten_sim.serve.words import WHICH_TO_TRUST

# xdist: one server (module fixture) and one artifacts folder, on one worker
pytestmark = pytest.mark.xdist_group("e2e_serve")

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"
EXAMPLE = json.loads((ROOT / "examples" / "position-lead.json").read_text())
ARTIFACTS = Path(os.environ.get("CATCHTEN_ARTIFACTS", ROOT / "artifacts" / "e2e"))
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"]
SIZES = {"wide": (1280, 800), "phone": (390, 844)}
IN_CI = os.environ.get("CI", "").lower() == "true"
TIMINGS: dict = {}
#: the banner's words before a paste's error: nothing of it was taken
NOT_LOADED = "Not loaded (the set-up is unchanged): "


def _need(reason: str):
    if IN_CI:
        pytest.fail(f"CI=true and {reason}: the end-to-end tests must run in CI")
    pytest.skip(reason)


def _browser_path() -> str | None:
    for p in (os.environ.get("CATCHTEN_CHROMIUM"), "/usr/bin/chromium",
              shutil.which("chromium"), shutil.which("chromium-browser")):
        if p and Path(p).exists():
            return p
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


@contextlib.contextmanager
def serving():
    """``catchten serve`` in a child, warm (its base URL); Ctrl-C stops it cleanly."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []))}
    proc = subprocess.Popen([sys.executable, "-m", "catchten_sim.cli", "serve", "--no-browser",
                             "--port", str(port)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    t0 = time.monotonic()
    try:
        while True:                      # up: the first answer; warm: every worker ready
            if proc.poll() is not None:
                pytest.fail(f"catchten serve exited: {proc.stdout.read()}")
            try:
                st = _get(base + "/api/status")
                TIMINGS.setdefault("server_up_s", round(time.monotonic() - t0, 2))
                if not st["warming"]:
                    break
            except OSError:
                pass
            if time.monotonic() - t0 > 600:
                pytest.fail("catchten serve did not warm up in 600 s")
            time.sleep(0.2)
        TIMINGS["warm_s"] = round(time.monotonic() - t0, 2)
        yield base
    finally:
        # Ctrl-C stops it cleanly: exit 0, "stopped", no traceback
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
            pytest.fail(f"catchten serve did not stop on Ctrl-C: {out}")
        assert proc.returncode == 0, out
        assert "stopped" in out and "Traceback" not in out, out
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "timings.json").write_text(json.dumps(TIMINGS, indent=1))


@pytest.fixture(scope="module")
def browser():
    # module-scoped: Playwright's sync API runs an asyncio loop in this thread while it is
    # open, and a later test's asyncio.run() in the same worker would then fail
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need("playwright is not installed (pip install -e \".[test]\")")
    path = _browser_path()
    if path is None:
        _need("no chromium found (apt-get install chromium, or set CATCHTEN_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        yield b
        b.close()


# one server for this module and tests/test_e2e_serve_page.py (the session's fixture
# e2e_server of tests/conftest.py: a warm server takes ~8 s to start)
@pytest.fixture(scope="module")
def server(e2e_server):
    return e2e_server


class Page:
    """A page with its console errors collected."""

    def __init__(self, browser, size: str = "wide") -> None:
        w, h = SIZES[size]
        self.page = browser.new_page(viewport={"width": w, "height": h})
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))

    def __enter__(self):
        return self.page

    def __exit__(self, *exc) -> None:
        self.page.close()


def _wait_state(page, states=("done",), timeout=90_000) -> str:
    sel = ", ".join(f'body[data-state="{s}"]' for s in states)
    page.wait_for_selector(sel, timeout=timeout)
    return page.get_attribute("body", "data-state")


def _open(page, server: str, load_box: bool = False) -> None:
    """The page, its card grid drawn; with ``load_box``, the paste / deal box opened."""
    page.goto(server + "/")
    page.wait_for_selector("#grid .c")
    if load_box:
        page.click("#load-box summary")


def _open_deal(page, server: str, seed: int) -> None:
    """All hands of the seed's deal (Deal (all hands)), its values shown."""
    _open(page, server, load_box=True)
    page.fill("#deal-seed", str(seed))
    page.click("#deal")
    page.wait_for_selector("#hands button[data-dd]")
    _wait_state(page)


def _set_options(page, samples=3000, dd_samples=48, seed=1) -> dict:
    page.fill("#samples", str(samples))
    page.fill("#dd-samples", str(dd_samples))
    page.fill("#seed", str(seed))
    return {"samples": samples, "seed": seed, "time": 20}


def _click_example(page) -> None:
    """The README's example position, by clicking: foster, 4 players, dealer 3, seat 0."""
    page.select_option("#dealer", "3")
    page.select_option("#seat", "0")
    page.click('.tab[data-target="hand"]')
    for c in EXAMPLE["hand"]:
        page.click(f'#grid [data-grid-card="{c}"]')
    page.click('.tab[data-target="turnup"]')
    page.click(f'#grid [data-grid-card="{EXAMPLE["turnup"]}"]')


def _table(page) -> dict:
    rows = page.query_selector_all("#cards tbody tr[data-card]")
    return {r.get_attribute("data-card"): (r.get_attribute("data-value"),
                                           r.get_attribute("data-rollout"),
                                           r.get_attribute("data-dd")) for r in rows}


def _shown_flags(page, ev: str) -> dict:
    """The options of the CLI command the page's Details give for run ``ev``
    (``catchten advise POSITION.json --evaluator dd --samples 48 ...``), as the API's."""
    words = page.text_content(f'[data-cli="{ev}"]').split()
    assert words[:3] == ["catchten", "advise", "POSITION.json"], words
    opts: dict = {}
    flags = words[3:]
    while flags:
        f = flags.pop(0)
        if f == "--no-early-stop":
            opts["early_stop"] = False
            continue
        v = flags.pop(0)
        opts[f[2:]] = v if f == "--evaluator" else float(v) if f == "--time" else int(v)
    return opts


def _strip_time(opts: dict) -> dict:
    return {k: v for k, v in opts.items() if k != "time"}


def _check_against_api(server, page, pos, opts) -> int:
    """The page's values are the API's (so the CLI's: tests/test_serve.py) for the options
    the page sent, and the CLI command its Details give for each run has exactly those;
    the ties shown are the runs' (``equivalent_to``). Returns the number of ties."""
    ro_opts, dd_opts = _shown_flags(page, "rollout"), _shown_flags(page, "dd")
    assert ro_opts == opts
    # Time is the whole advice's: dd runs in what the rollouts left of it
    dd_time = dd_opts.pop("time")
    assert 0 < dd_time <= opts["time"]
    assert dd_opts == {**_strip_time(opts), "evaluator": "dd",
                       "samples": int(page.input_value("#dd-samples"))}
    dd_opts["time"] = dd_time         # the command the page shows, as it is
    ro = _post(server + "/api/advise", {"position": pos, "options": ro_opts})
    dd = _post(server + "/api/advise", {"position": pos, "options": dd_opts})
    table = _table(page)
    assert set(table) == {c["card"] for c in ro["candidates"]} == \
        {c["card"] for c in dd["candidates"]}
    for c in ro["candidates"]:
        value, rollout, _ = table[c["card"]]
        assert float(rollout) == c[ro["objective"]]["mean"]
        assert value == rollout                 # the headline uses the rollouts
    for c in dd["candidates"]:
        assert float(table[c["card"]][2]) == c["diff"]["mean"]
    # tied cards are marked in their run's column, the title saying how: a card that
    # scored as the best on every deal (the CLI's AS=JS), and a card whose value and
    # interval are an earlier card's of the run
    n_ties = 0
    for col, a in (("ro", ro), ("dd", dd)):
        ties, first = {}, {}
        for c in a["candidates"]:
            e = c[a["objective"]]
            key = (e["mean"], tuple(e["ci95"]))
            if c["equivalent_to"]:
                ties[c["card"]] = (c["equivalent_to"], "true")
            elif key in first:
                ties[c["card"]] = (first[key], "false")
            else:
                first[key] = c["card"]
        shown = {}
        for r in page.query_selector_all("#cards tbody tr[data-card]"):
            tie = r.query_selector(f"td.{col} .tie")
            if tie:
                shown[r.get_attribute("data-card")] = (tie.get_attribute("data-tie"),
                                                       tie.get_attribute("data-every"))
                assert tie.get_attribute("title").startswith("same value as ")
        assert shown == ties, (col, shown, ties)
        n_ties += sum(every == "true" for _, every in ties.values())
    return n_ties


def test_click_a_position_every_card_valued_as_the_api(server, browser):
    for size in ("wide", "phone"):
        p = Page(browser, size)
        with p as page:
            t0 = time.monotonic()
            page.goto(server + "/")
            page.wait_for_selector("#grid .c")
            fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')"
                                "[0]?.startTime ?? null")
            TIMINGS[f"{size}_first_paint_ms"] = fcp
            TIMINGS[f"{size}_grid_ready_s"] = round(time.monotonic() - t0, 3)
            _click_example(page)
            opts = _set_options(page)
            t1 = time.monotonic()
            page.click("#advise")
            page.wait_for_selector("#cards tr[data-rollout]")
            TIMINGS[f"{size}_first_rollout_values_s"] = round(time.monotonic() - t1, 3)
            page.wait_for_selector("#cards tr[data-dd]")
            TIMINGS[f"{size}_first_dd_values_s"] = round(time.monotonic() - t1, 3)
            assert _wait_state(page) == "done"
            # the example's 48 dd deals tie a card with the best on every deal: the tie
            # check above is not empty
            assert _check_against_api(server, page, EXAMPLE, opts) > 0
            answer = page.inner_text("#answer")
            assert "Lead a trump" in answer and "points a hand" in answer
            assert page.inner_text("#trust") == WHICH_TO_TRUST       # under the values
            # the footer's unit and the options' labels in words, not field names
            assert "values in points a hand (our side's points minus the opponents')" \
                in page.inner_text("footer")
            assert page.eval_on_selector("#dd-samples", "e => e.parentElement.textContent"
                                         ).strip() == "Double-dummy deals"
            # the position is in the URL: a link opens it and starts its advice
            assert "position=" in page.url
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"advice-{size}.png"), full_page=True)
            if size == "wide":
                _check_stale(page)
        assert p.errors == []


def _check_stale(page) -> None:
    """A finished advice, the set-up then changed: greyed and said to be for the previous
    position; the change undone, it is this position's advice again (the card taken out
    is the first one entered: put back, it is the hand's last, the same hand)."""
    assert page.is_hidden("#stale-note")
    card = EXAMPLE["hand"][0]
    page.click('.tab[data-target="hand"]')
    page.click(f'#grid [data-grid-card="{card}"]')            # out of the hand
    assert page.is_visible("#stale-note") and "previous position" in page.inner_text(
        "#stale-note")
    assert "stale" in page.get_attribute("#advice", "class")
    assert page.eval_on_selector("#cards", "e => getComputedStyle(e).opacity") == "0.45"
    page.click("#details summary")             # the runs' CLI commands, in the screenshot
    page.screenshot(path=str(ARTIFACTS / "advice-stale-wide.png"), full_page=True)
    page.click(f'#grid [data-grid-card="{card}"]')            # back: the advised set-up
    assert page.is_hidden("#stale-note")
    assert "stale" not in (page.get_attribute("#advice", "class") or "")


def test_a_link_opens_the_position_and_advises(server, browser):
    pos = {**EXAMPLE, "hand": ["AS", "9S", "KH", "QH", "7D", "8C", "9C", "TC"],
           "play": ["JS", "6S", "TS", "QS"], "dealer": 3, "seat": 0}
    p = Page(browser)
    with p as page:
        page.goto(server + "/?position=" + quote(json.dumps(pos)))
        state = _wait_state(page, ("done", "error"))
        if state == "error":             # a position this history does not allow
            pytest.fail(page.inner_text("#error"))
        assert page.query_selector_all("#cards tbody tr[data-card]")
        assert page.input_value("#samples") == "20000"
    assert p.errors == []


def test_a_wait_for_a_free_worker_is_said_and_not_taken_out_of_time(server, browser):
    """Both workers busy with other work for about 4 s: the rollout row says "waiting for
    a free worker" (never "starting") while its job waits, and the wait is not taken out
    of Time: dd gets what the rollouts' own run left of it."""
    slow = {"position": EXAMPLE, "options": {"samples": 10 ** 7, "early_stop": False,
                                             "time": 4, "exact_max": 0}}
    others = [threading.Thread(target=_post, args=(server + "/api/advise", slow))
              for _ in range(2)]
    budget = 8
    p = Page(browser)
    with p as page:
        _open(page, server)
        _click_example(page)
        _set_options(page)
        page.fill("#time", str(budget))
        for t in others:
            t.start()
        t0 = time.monotonic()
        while _get(server + "/api/status")["running"] < 2:
            assert time.monotonic() - t0 < 30
            time.sleep(0.05)
        page.click("#advise")
        said: list[str] = []
        while page.get_attribute("body", "data-state") not in ("done", "error"):
            text = page.text_content("#ptext-rollout")
            if not said or said[-1] != text:
                said.append(text)
            assert time.monotonic() - t0 < 90, said
            page.wait_for_timeout(50)
        for t in others:
            t.join(60)
        assert page.get_attribute("body", "data-state") == "done", page.inner_text("#error")
        waited = [t for t in said if t.startswith("waiting for a free worker")]
        assert waited and "starting" not in said, said
        ro_s = float(re.search(r"([\d.]+) s$", said[-1])[1])     # "3,000 deals, 0.4 s"
        assert _shown_flags(page, "dd")["time"] >= budget - ro_s - 1.0, said
    assert [e for e in p.errors if "status of 400" not in e] == []


def test_all_hands_play_and_undo(server, browser):
    p = Page(browser)
    with p as page:
        _open_deal(page, server, seed=4)
        # the deal's dealer is the set-up's (seat 3, the default): deal 3 of the seed
        dealer = int(page.input_value("#dealer"))
        assert f"dealer seat {dealer}," in page.text_content("#deal-title")
        rec = _post(server + "/api/deal", {"seed": 4, "index": dealer})
        assert rec["dealer"] == dealer == 3
        first = _post(server + "/api/solve", {"record": rec})

        def shown() -> dict:
            return {b.get_attribute("data-card"): int(b.get_attribute("data-dd"))
                    for b in page.query_selector_all("#hands button[data-dd]")}
        assert shown() == {c["card"]: c["value"] for c in first["cards"]}
        card = first["best"][0]
        t0 = time.monotonic()
        page.click(f'#hands button[data-card="{card}"][data-dd]')
        page.wait_for_selector('#deal-played .chip[data-index="0"]')
        page.wait_for_function(f"!document.querySelector('#hands [data-card=\"{card}\"]')")
        _wait_state(page)
        TIMINGS["deal_click_to_values_s"] = round(time.monotonic() - t0, 3)
        after = _post(server + "/api/solve", {"record": {**rec, "play": [card]}})
        assert shown() == {c["card"]: c["value"] for c in after["cards"]}
        page.click("#deal-undo")
        page.wait_for_selector(f'#hands button[data-card="{card}"][data-dd]')
        _wait_state(page)
        assert shown() == {c["card"]: c["value"] for c in first["cards"]}
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "deal-wide.png"), full_page=True)
        page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
        page.screenshot(path=str(ARTIFACTS / "deal-phone.png"), full_page=True)
    assert p.errors == []


def test_the_check_covers_the_cards_up_to_the_position_after_undo(server, browser):
    """Cards played along an optimal line, then one that loses points, taken back with
    Undo: "Check every played card" checks the cards up to the position shown, says so
    and how many it left, and reports no loss (the card taken back is not checked)."""
    rec = _post(server + "/api/deal", {"seed": 4, "index": 3})
    play: list = []
    while True:                 # the best card until a card can lose points: that one
        sol = _post(server + "/api/solve", {"record": {**rec, "play": play}})
        worst = min(sol["cards"], key=lambda c: c["value"])
        if len(play) >= 2 and worst["value"] < sol["value"]:
            play.append(worst["card"])
            break
        play.append(sol["best"][0])
    kept = len(play) - 1
    p = Page(browser)
    with p as page:
        _open_deal(page, server, seed=4)
        for i, card in enumerate(play):
            page.click(f'#hands button[data-card="{card}"][data-dd]')
            page.wait_for_selector(f'#deal-played .chip[data-index="{i}"]')
            _wait_state(page)
        page.click("#deal-undo")
        page.wait_for_selector(f'#hands button[data-card="{play[-1]}"][data-dd]')
        _wait_state(page)
        page.click("#deal-check")
        page.wait_for_selector("#deal-check-out:not([hidden])", timeout=120_000)
        _wait_state(page)
        assert page.get_attribute("#deal-played", "data-checked") == str(kept)
        assert page.get_attribute("#deal-check-out", "data-mistakes") == "0"
        assert page.inner_text("#deal-check-out") == (
            f"Checked all {kept} played cards up to the current position (1 later card "
            "not checked): none lost anything double-dummy (each was an optimal card).")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "check-after-undo-wide.png"), full_page=True)
    assert p.errors == []


def test_load_a_hand_record_and_step_through_it(server, browser):
    path = CASES / "dd" / "foster4_left4_lead_01.json"
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        page.fill("#paste", path.read_text())
        page.click("#load")
        page.wait_for_selector("#hands button[data-dd]")
        _wait_state(page)
        got = {b.get_attribute("data-card"): int(b.get_attribute("data-dd"))
               for b in page.query_selector_all("#hands button[data-dd]")}
        assert got == {c["card"]: c["value"] for c in expected["cards"]}
        n_play = len(json.loads(path.read_text())["play"])
        assert len(page.query_selector_all("#deal-played .chip")) == n_play
        # every played card's double-dummy loss: the chips marked as mistakes are exactly
        # the cards worth less than the best before them (by the API's solves)
        page.click("#deal-check")
        record = json.loads(path.read_text())
        page.wait_for_selector(f'#deal-played[data-checked="{len(record["play"])}"]',
                               timeout=120_000)
        want = set()
        for i, card in enumerate(record["play"]):
            sol = _post(server + "/api/solve", {"record": {**record, "play": record["play"][:i]}})
            if sol["value"] != next(c["value"] for c in sol["cards"] if c["card"] == card):
                want.add(i)
        got = {int(c.get_attribute("data-index"))
               for c in page.query_selector_all("#deal-played .chip.mistake")}
        assert got == want
        # the verdict is said in words too, each card that lost named
        out = page.inner_text("#deal-check-out")
        assert page.is_visible("#deal-check-out")
        assert int(page.get_attribute("#deal-check-out", "data-mistakes")) == len(want)
        assert out.startswith(f"Checked all {n_play} played cards: {len(want)} lost points")
        # rewind to the last trick's start, then step forward through the recorded cards
        page.click(f'#deal-played .chip[data-index="{n_play - 4}"]')
        _wait_state(page)
        assert len(page.query_selector_all("#deal-played .chip.future")) == 4
        page.click(f'#deal-played .chip[data-index="{n_play - 3}"]')
        _wait_state(page)
        assert len(page.query_selector_all("#deal-played .chip.future")) == 3
        TIMINGS["record_mistakes"] = sorted(want)
    assert p.errors == []


def test_a_check_that_finds_nothing_says_so(server, browser):
    """A play with no double-dummy loss (the first cards of an optimal line) gets a visible
    line saying that none lost anything, not silence."""
    record = json.loads((CASES / "dd" / "foster4_left4_lead_01.json").read_text())
    line = _post(server + "/api/solve", {"record": {**record, "play": []},
                                         "options": {"line": True}})["line"]
    clean = {**record, "play": line[:8]}
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        page.fill("#paste", json.dumps(clean))
        page.click("#load")
        page.wait_for_selector("#hands button[data-dd]")
        _wait_state(page)
        assert not page.is_visible("#deal-check-out")      # nothing said before a check
        page.click("#deal-check")
        page.wait_for_selector('#deal-played[data-checked="8"]', timeout=120_000)
        assert page.is_visible("#deal-check-out")
        assert page.inner_text("#deal-check-out") == (
            "Checked all 8 played cards: none lost anything double-dummy (each was an "
            "optimal card).")
        assert page.query_selector_all("#deal-played .chip.mistake") == []
        page.screenshot(path=str(ARTIFACTS / "check-clean-wide.png"), full_page=True)
        # playing another card changes the play: the old verdict goes
        page.click('#deal-played .chip[data-index="4"]')
        _wait_state(page)
        other = page.query_selector_all(f'#hands button[data-dd]:not([data-card="{line[4]}"])')
        if other:
            other[0].click()
            _wait_state(page)
            assert not page.is_visible("#deal-check-out")
    assert p.errors == []


def test_bad_input_shows_its_line_and_the_page_still_works(server, browser):
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        page.fill("#paste", '{"rules": "foster", ')
        page.click("#load")
        page.wait_for_selector("#error:not([hidden])")
        # the banner in plain words (the field as the page names it), the line on data-line
        assert page.inner_text("#error").startswith(NOT_LOADED + "The pasted text: not JSON")
        assert page.get_attribute("#error", "data-line").startswith("error: input: not JSON")
        bad = {**EXAMPLE, "hand": ["JS", "AS", "9S", "KH", "QH", "7D", "8C", "9C", "XC"]}
        page.fill("#paste", json.dumps(bad))
        page.click("#load")
        # the state is still "error" from the paste above: wait for this load's own error
        page.wait_for_function("(t => document.body.dataset.state === 'error' && t !== '' "
                               "&& !t.includes('not JSON'))"
                               "(document.querySelector('#error').textContent)",
                               timeout=90_000)
        line = page.get_attribute("#error", "data-line")
        req = urllib.request.Request(server + "/api/advise", method="POST",
                                     data=json.dumps({"position": bad}).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(req, timeout=30)
            pytest.fail("the API took a bad card")
        except urllib.error.HTTPError as exc:
            assert exc.code == 400
            assert line == json.loads(exc.read())["error"]
        assert line.startswith("error: hand: ")
        assert page.inner_text("#error") == NOT_LOADED + "Your hand: " + line[len(
            "error: hand: "):]
        # a position where another seat is to play: said as such, not "error: seat: ..."
        page.fill("#paste", json.dumps({**EXAMPLE, "seat": 1}))
        page.click("#load")
        page.wait_for_function("document.querySelector('#error').textContent"
                               ".startsWith('" + NOT_LOADED + "Not your turn: seat 0 is to "
                               "play, not seat 1.')",
                               timeout=90_000)
        assert page.get_attribute("#error", "data-line").startswith(
            "error: seat: not the player to move")
        # the page still works: the good position, clicked
        page.click("#clear")
        _click_example(page)
        _set_options(page, samples=1000, dd_samples=16)
        page.click("#advise")
        assert _wait_state(page, ("done", "error")) == "done"
        assert page.is_hidden("#error")
    # the 400 answers are logged by the browser itself as failed loads; nothing else
    assert [e for e in p.errors if "status of 400" not in e] == []


def test_cancel_stops_the_work(server, browser):
    p = Page(browser)
    with p as page:
        _open(page, server)
        _click_example(page)
        page.fill("#samples", "10000000")
        page.fill("#dd-samples", "10000000")
        page.fill("#time", "60")
        page.uncheck("#early-stop")
        page.click("#advise")
        page.wait_for_function("document.querySelector('#ptext-rollout').textContent"
                               ".includes('deals')", timeout=60_000)
        t0 = time.monotonic()
        page.click("#cancel")
        assert _wait_state(page, ("cancelled",), timeout=10_000) == "cancelled"
        while _get(server + "/api/status")["running"]:
            assert time.monotonic() - t0 < 15, "the workers did not stop"
            time.sleep(0.1)
        TIMINGS["cancel_to_idle_s"] = round(time.monotonic() - t0, 3)
        # and the next advice runs at once
        page.fill("#samples", "1000")
        page.fill("#dd-samples", "16")
        page.check("#early-stop")
        page.click("#advise")
        assert _wait_state(page, ("done",)) == "done"
    assert p.errors == []


def test_hand_counter_and_dealer_follow_the_rules(server, browser):
    """Review 1, 8, 9: at 3 players (foster deals in sets) the counter asks for the set's
    6 cards and refuses a 7th with a visible message; a new number of players makes the
    last seat the dealer (jaques 6: seat 0 on lead, so Advise answers)."""
    p = Page(browser)
    with p as page:
        _open(page, server)
        page.select_option("#players", "3")
        page.wait_for_function("document.querySelector('#dealer').options.length === 3")
        assert page.input_value("#dealer") == "2"
        assert page.inner_text("#hand-count") == "(0/6)"
        page.click('.tab[data-target="hand"]')
        for c in ["6S", "9S", "JS", "AS", "7H", "TH", "QH"]:
            page.click(f'#grid [data-grid-card="{c}"]')
        assert page.inner_text("#hand-count") == "(6/6)"
        assert page.is_visible("#error") and "at most 6" in page.inner_text("#error")
        assert "in-hand" not in (page.get_attribute('#grid [data-grid-card="QH"]', "class")
                                 or "")
        page.select_option("#players", "4")       # jaques has no 3 (no 400 logged)
        page.wait_for_function("document.querySelector('#dealer').options.length === 4")
        assert page.input_value("#dealer") == "3"
        page.select_option("#preset", "jaques")
        page.wait_for_function("document.querySelector('#players').options.length === 2")
        page.select_option("#players", "6")
        page.wait_for_function("document.querySelector('#dealer').options.length === 6")
        assert page.input_value("#dealer") == "5" and page.input_value("#seat") == "0"
        page.screenshot(path=str(ARTIFACTS / "counter-3p-wide.png"), full_page=True)
    assert p.errors == []


def test_simulate_from_the_page(server, browser):
    p = Page(browser)
    with p as page:
        _open(page, server)
        page.select_option("#players", "3")
        page.wait_for_function("document.querySelector('#dealer').options.length === 3")
        page.click("#sim-box summary")
        page.fill("#sim-deals", "4000")
        page.fill("#sim-seed", "2")
        page.click("#simulate")
        page.wait_for_selector("#sim-ten")
        _wait_state(page)
        api = _post(server + "/api/simulate", {"rules": "foster", "players": 3,
                                               "options": {"deals": 4000, "seed": 2}})
        assert float(page.get_attribute("#sim-ten", "data-p-caught")) == api["ten"]["p_caught"]
        assert len(page.query_selector_all("#sim-out tr[data-position]")) == 3
        _check_figures(page, 1280)
        page.screenshot(path=str(ARTIFACTS / "simulate-wide.png"), full_page=True)
    assert p.errors == []


def _check_figures(page, width: int) -> None:
    """The report's figures under the table: each loaded, named by its title, and within
    the page's width."""
    page.wait_for_function("[...document.querySelectorAll('#sim-figures img')].every("
                           "i => i.complete && i.naturalWidth > 0)")
    figs = page.eval_on_selector_all("#sim-figures img", "els => els.map(i => ({"
                                     "name: i.dataset.figure, alt: i.alt, "
                                     "w: i.naturalWidth, shown: i.getBoundingClientRect()"
                                     ".width, right: i.getBoundingClientRect().right}))")
    names = [f["name"] for f in figs]
    assert {"summary", "points_distribution", "seat_advantage"} <= set(names), names
    for f in figs:
        assert f["w"] > 0 and f["alt"] and f["alt"] != f["name"], f
        assert 0 < f["shown"] <= width and f["right"] <= width, f
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_simulate_figures_fit_a_phone(server, browser):
    p = Page(browser, "phone")
    with p as page:
        _open(page, server)
        page.click("#sim-box summary")
        page.fill("#sim-deals", "2000")
        page.click("#simulate")
        _wait_state(page)
        _check_figures(page, SIZES["phone"][0])
        page.locator("#sim-figures img").nth(1).scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "simulate-figures-phone.png"))
        page.locator(".sim-fig").nth(1).click()          # full size, to pan on a phone
        shown = page.eval_on_selector(".sim-fig.open img", "i => [i.naturalWidth, "
                                      "i.getBoundingClientRect().width]")
        assert shown[0] > SIZES["phone"][0] and shown[1] == shown[0], shown
        page.keyboard.press("Escape")
        assert page.query_selector(".sim-fig.open") is None
    assert p.errors == []


def test_a_small_ending_shows_the_fusion_aware_column(server, browser):
    """The ending of tests/test_advise_fusion.py (120 consistent deals, PIMC ruffs, the
    fusion-aware value prefers the discard JD): the page shows the dd answer's
    fusion-aware values as their own column and says its best card in words."""
    from catchten_sim import Rules
    from catchten_sim.cards import cards_of_mask
    from catchten_sim.endings import ending
    from catchten_sim.position import Position
    r = Rules("foster", 4)
    d, prefix = ending(r, seed=2, index=71, tricks=3, into=2)
    hand = [c for c in cards_of_mask(d.set_hands[0][0]) if c not in set(prefix)]
    pos = Position(r, d.dealer, 0, tuple(hand), d.turnup, tuple(prefix), tuple(d.dead),
                   None, d.trump if d.turnup is None else None).to_dict()
    for size in ("wide", "phone"):
        _fusion_page(server, browser, pos, size)


def _fusion_page(server, browser, pos: dict, size: str) -> None:
    p = Page(browser, size)
    with p as page:
        page.goto(server + "/?position=" + quote(json.dumps(pos)))
        assert _wait_state(page, ("done", "error"), timeout=180_000) == "done"
        dd = _post(server + "/api/advise", {"position": pos, "options": {
            "evaluator": "dd", "samples": int(page.input_value("#dd-samples")),
            "seed": int(page.input_value("#seed"))}})
        assert dd["fusion"]["best"] == "JD"
        assert page.is_visible("#th-fusion")
        rows = page.query_selector_all("#cards tbody tr[data-card]")
        shown = {x.get_attribute("data-card"): x.get_attribute("data-fusion") for x in rows}
        assert {c: float(v) for c, v in shown.items()} == {
            c["card"]: c["fusion"] for c in dd["candidates"]}
        assert "If you must play the same card in every deal you cannot tell apart" \
            in page.inner_text("#answer")
        _check_link_layout(page)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"advice-fusion-{size}.png"), full_page=True)
        page.screenshot(path=str(ARTIFACTS / f"advice-fusion-{size}-opened.png"))
    assert p.errors == []


def _check_link_layout(page) -> None:
    """A page opened from a link is at its top (the position's start), not scrolled to
    the half-filled advice; each trick's played cards stay on one line; a card and the
    value after it in the words ("K♣ +6.06") never break apart."""
    assert page.evaluate("window.scrollY") == 0
    tops = page.evaluate("""[...document.querySelectorAll('#played .trick-group')]
        .map(g => [...g.querySelectorAll('.chip')].map(c => c.getBoundingClientRect().top))""")
    assert len(tops) >= 2 and all(len(set(t)) == 1 for t in tops), tops
    words = page.inner_text("#answer")
    assert re.search("[\u2660\u2665\u2666\u2663] [+\u2212-]?[0-9]", words) is None, words
    assert re.search("[\u2660\u2665\u2666\u2663]\u00a0[+\u2212-]?[0-9]", words), words


def test_a_failed_advice_leaves_no_old_value_and_own_cards_are_refused(server, browser):
    """Review (the page as a new user): after an advice that fails, no row shows the
    previous run's numbers (the dd row kept its "48 deals" and full bar when the rollouts
    failed and dd never ran); under Cards played, a card of the viewer's hand is greyed
    with a title, and clicking it records nothing."""
    p = Page(browser)
    with p as page:
        _open(page, server)
        _click_example(page)
        page.click('.tab[data-target="play"]')
        own = '#grid [data-grid-card="JS"]'
        # Your turn: the title says how to record a card you played (out of the hand first)
        page.wait_for_function(f"document.querySelector('{own}').title.includes("
                               "'take it out of Your hand first')")
        assert page.get_attribute(own, "title").startswith("Not possible: J\u2660 is in Your "
                                                            "hand, and it is your turn")
        assert page.get_attribute(own, "aria-disabled") == "true"
        assert page.inner_text("#next-line").startswith("Your turn (seat 0)")
        assert page.is_enabled("#advise")
        page.click(own, force=True)            # aria-disabled: playwright would wait
        assert page.inner_text("#play-count") == "(0)"
        # the banner in plain words, the API's kind of line kept on it
        assert page.inner_text("#error").startswith("Cards played: J\u2660 is in Your hand")
        assert page.get_attribute("#error", "data-line").startswith("error: play: ")
        page.screenshot(path=str(ARTIFACTS / "own-card-refused-wide.png"), full_page=True)
        _record_own_play(page)
        _set_options(page, samples=1000, dd_samples=48)
        page.click("#advise")
        assert _wait_state(page, ("done", "error")) == "done"
        assert "48 deals" in page.inner_text("#ptext-dd")
        page.fill("#samples", "0")                 # the rollouts refused: dd never runs
        page.click("#advise")
        assert _wait_state(page, ("error",)) == "error"
        for ev in ("rollout", "dd"):
            assert "deals" not in page.inner_text(f"#ptext-{ev}")
            assert page.eval_on_selector(f"#prog-{ev}", "e => e.value") == 0
        assert page.inner_text("#ptext-dd") == "not run (the rollouts failed first)"
        assert page.query_selector_all("#cards tbody tr") == []
        assert page.is_hidden("#th-fusion")
        assert "No advice" in page.inner_text("#answer")
        assert page.get_attribute("#error", "data-line").startswith("error: samples: ")
        assert page.inner_text("#error").startswith("Samples: ")
        assert page.inner_text("#ptext-rollout") == "failed"
        page.screenshot(path=str(ARTIFACTS / "failed-advice-wide.png"), full_page=True)
    assert [e for e in p.errors if "status of 400" not in e] == []


def _record_own_play(page) -> None:
    """docs/serve.md's way to record a card you played: out of Your hand, then under Cards
    played. Then another seat is to play: your cards' titles say that seat cannot play
    them (no "take it out"), and Advise is off, its title saying why; undone after."""
    page.click('.tab[data-target="hand"]')
    page.click('#grid [data-grid-card="JS"]')                   # out of the hand
    page.click('.tab[data-target="play"]')
    page.click('#grid [data-grid-card="JS"]')                   # seat 0 played it
    assert page.inner_text("#play-count") == "(1)"
    page.wait_for_function("document.querySelector('#next-line').textContent"
                           ".startsWith(\"Next card played: seat 1's\")")
    own = '#grid [data-grid-card="AS"]'
    title = page.get_attribute(own, "title")
    assert "seat 1, to play next, cannot play it" in title and "take it out" not in title
    assert page.is_disabled("#advise")
    assert page.get_attribute("#advise", "title").startswith("Not your turn: seat 1 plays next")
    page.screenshot(path=str(ARTIFACTS / "not-your-turn-wide.png"), full_page=True)
    page.click("#undo-play")
    page.click('.tab[data-target="hand"]')
    page.click('#grid [data-grid-card="JS"]')                   # back in the hand
    page.wait_for_function("!document.querySelector('#advise').disabled")


def test_first_load_shows_nothing_red_and_says_the_turnup_in_words(server, browser):
    """Before any input: no banner and nothing in red; the missing turn-up is a plain
    hint in the page's words, not the API's ("turnup: missing")."""
    p = Page(browser)
    with p as page:
        _open(page, server)
        page.wait_for_function("document.querySelector('#next-line').textContent !== ''")
        assert page.is_hidden("#error")
        line = page.inner_text("#next-line")
        assert "problem" not in (page.get_attribute("#next-line", "class") or "")
        assert line.startswith("Turn-up card: not set yet") and "turnup" not in line
        # in the page's ink, not the red of a problem
        color = page.eval_on_selector("#next-line", "e => getComputedStyle(e).color")
        assert color == page.eval_on_selector("body", "e => getComputedStyle(e).color")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "first-load-wide.png"))
    assert p.errors == []


def test_a_bad_paste_is_refused_whole(server, browser):
    """A pasted position with one bad card: nothing of it is taken (rules, dealer, hand,
    turn-up stay as they were), one message names the field."""
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        _click_example(page)
        before = page.evaluate("JSON.stringify([document.querySelector('#preset').value, "
                               "document.querySelector('#dealer').value, "
                               "document.querySelector('#hand-count').textContent, "
                               "document.querySelector('#turnup-show').textContent])")
        bad = {"rules": "french52", "players": 4, "dealer": 2, "seat": 3,
               "hand": ["7H", "XX", "8S"], "turnup": "3H", "play": []}
        page.fill("#paste", json.dumps(bad))
        page.click("#load")
        page.wait_for_selector("#error:not([hidden])")
        assert page.inner_text("#error") == NOT_LOADED + 'Your hand: malformed card (hand[1]="XX")'
        assert page.get_attribute("#error", "data-line").startswith("error: hand: malformed card")
        after = page.evaluate("JSON.stringify([document.querySelector('#preset').value, "
                              "document.querySelector('#dealer').value, "
                              "document.querySelector('#hand-count').textContent, "
                              "document.querySelector('#turnup-show').textContent])")
        assert after == before
        assert page.text_content("#answer").startswith("Set up a position")   # no advice ran
    assert [e for e in p.errors if "status of 400" not in e] == []


def test_dd_time_is_the_whole_advices_and_its_row_says_running(server, browser):
    """french52 at the opening lead (double-dummy takes seconds a deal) with Time 5: the
    answer comes within the Time (plus the server's reply), and the dd row says
    "running" while it runs, never "queued"."""
    pos = json.loads((CASES / "score" / "french52_04.json").read_text())
    seat = (pos["dealer"] + 1) % 4
    pos = {"rules": "french52", "players": 4, "dealer": pos["dealer"], "seat": seat,
           "hand": pos["hands"][seat], "turnup": pos["turnup"], "play": []}
    budget = 5
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        page.fill("#time", str(budget))
        page.fill("#paste", json.dumps(pos))
        t0 = time.monotonic()
        page.click("#load")
        said = set()
        while page.get_attribute("body", "data-state") not in ("done", "error"):
            said.add(page.text_content("#ptext-dd"))
            assert time.monotonic() - t0 < budget + 30, said
            page.wait_for_timeout(100)
        took = time.monotonic() - t0
        TIMINGS["french52_dd_time_5_s"] = round(took, 2)
        assert page.get_attribute("body", "data-state") == "done", page.inner_text("#error")
        assert any(t.startswith("running") for t in said), said
        assert not any("queued" in t for t in said), said
        assert took < budget + 2.0, (took, said)
        assert _shown_flags(page, "dd")["time"] <= budget
        page.click("#details summary")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "dd-time-wide.png"), full_page=True)
        # the Details in a card player's words: no field names or look counts
        details = page.inner_text("#details-text")
        for word in ("objective", "look 1", "planned, z", "(score)", "consistent",
                     "--time limit", "dd evaluator", "bounds' midpoints"):
            assert word not in details, word
        assert "standard errors" in details and "the time limit ran out" in details
    assert [e for e in p.errors if "status of 400" not in e] == []
