"""End to end, in a real headless Chromium (the server, the browser and the helpers of
tests/test_e2e_serve.py): double-dummy advice runs once, its values so far on screen
after its first 16 deals (2 on french52); an answer on too few deals says what is known
and claims no card (the switches offered at each player count:
tests/test_e2e_serve_page.py)."""
from __future__ import annotations

import json

import pytest
import test_e2e_serve as e2e
from test_e2e_serve import ARTIFACTS, Page, _open, _wait_state

# the fixtures of tests/test_e2e_serve.py (its server, shared by the session; a browser)
server, browser = e2e.server, e2e.browser

# xdist: the same worker as tests/test_e2e_serve.py (one browser load at a time)
pytestmark = pytest.mark.xdist_group("e2e_serve")

#: the README's opening lead: double-dummy takes a fraction of a second a deal here
LEAD = json.loads((e2e.ROOT / "examples" / "position-lead.json").read_text())

#: the first moment each kind of dd value is on screen: its values so far (data-dd-so-far,
#: with the column's unit then) and its final ones (data-dd)
FIRST_SEEN = """
window.__dd = {};
new MutationObserver(() => {
  const m = window.__dd;
  if (!m.soFar && document.querySelector('#cards tr[data-dd-so-far]'))
    m.soFar = {t: performance.now(), unit: document.querySelector('#unit-dd').textContent,
               final: !!document.querySelector('#cards tr[data-dd]')};
  if (!m.final && document.querySelector('#cards tr[data-dd]')) m.final = performance.now();
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def _paste_and_advise(page, pos: dict, samples: int, dd_samples: int) -> None:
    page.fill("#samples", str(samples))
    page.fill("#dd-samples", str(dd_samples))
    page.fill("#paste", json.dumps(pos))
    page.click("#load")


def test_dd_runs_once_and_shows_its_values_so_far_first(server, browser):
    """The page ran a preliminary dd run of 16 deals and then a full run that solved
    those 16 deals again. Now one dd request: its values so far ("16 deals so far", ≈
    in grey) are on screen before its final values replace them."""
    p = Page(browser)
    with p as page:
        page.add_init_script(FIRST_SEEN)
        posted: list[dict] = []
        page.on("request", lambda r: posted.append(json.loads(r.post_data)["options"])
                if r.url.endswith("/api/advise/stream") else None)
        _open(page, server, load_box=True)
        _paste_and_advise(page, LEAD, 3000, 1000)
        page.wait_for_selector("#cards tr[data-dd-so-far] .v.running")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "dd-so-far-wide.png"), full_page=True)
        assert _wait_state(page) == "done"
        dd = [o for o in posted if o.get("evaluator") == "dd"]
        assert len(dd) == 1 and dd[0]["samples"] == 1000, posted
        seen = page.evaluate("window.__dd")
        assert seen["soFar"]["unit"].endswith("; 16 deals so far"), seen
        assert not seen["soFar"]["final"] and seen["soFar"]["t"] < seen["final"], seen
        # the final values replaced them, from the one run the Details name
        assert page.query_selector("#cards tr[data-dd] .v.running") is None
        page.click("#details summary")
        assert "--samples 1000" in page.inner_text('code[data-cli="dd"]')
    assert p.errors == []


def test_french52_dd_values_so_far_come_early_in_the_wait(server, browser):
    """french52 at the opening lead, a deal solved in seconds: dd's values so far came
    after 16 deals, at about 90% of the wait (or not before the final ones). Now after
    its first 2 deals ("2 deals so far"), well before its final values."""
    rec = json.loads((e2e.CASES / "score" / "french52_04.json").read_text())
    seat = (rec["dealer"] + 1) % 4
    pos = {"rules": "french52", "players": 4, "dealer": rec["dealer"], "seat": seat,
           "hand": rec["hands"][seat], "turnup": rec["turnup"], "play": []}
    p = Page(browser)
    with p as page:
        page.add_init_script(FIRST_SEEN)
        _open(page, server, load_box=True)
        page.fill("#time", "12")
        t0 = page.evaluate("performance.now()")
        _paste_and_advise(page, pos, 3000, 1000)
        page.wait_for_selector("#cards tr[data-dd-so-far] .v.running", timeout=60_000)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "dd-so-far-french52-wide.png"), full_page=True)
        assert _wait_state(page) == "done"
        seen = page.evaluate("window.__dd")
        assert seen["soFar"]["unit"].endswith("; 2 deals so far"), seen
        assert not seen["soFar"]["final"] and seen["soFar"]["t"] < seen["final"], seen
        e2e.TIMINGS["french52_dd_so_far_s"] = round((seen["soFar"]["t"] - t0) / 1000, 2)
        e2e.TIMINGS["french52_dd_final_s"] = round((seen["final"] - t0) / 1000, 2)
    assert p.errors == []


def test_a_too_few_answer_says_what_is_known_and_claims_no_card(server, browser):
    """12 double-dummy deals (no card separated): the headline chooses no card with
    perfect play and names the cards leading so far (J♠, and A♠ that scored as J♠ on
    every deal); double-dummy's lines give no 95%
    amounts; its column marks the leader ☆ ("leads so far"), not ★; the line under the
    values and the footer say its deals are too few."""
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        _paste_and_advise(page, LEAD, 3000, 12)
        assert _wait_state(page) == "done"
        head = page.inner_text("#answer .headline")
        assert "with perfect play, none yet, on too few deals to choose a card (12): " \
            in head and head.endswith(": J\u2660 and A\u2660 lead so far"), head
        lines = [e.inner_text() for e in page.query_selector_all("#answer p")]
        dd_lines = [t for t in lines if "plays perfectly" in t]
        assert len(dd_lines) == 2, lines           # its best card, "lead a trump?"
        assert all("95%" not in t.split("; with club-level")[0] for t in dd_lines), dd_lines
        assert "ranges are between " in dd_lines[0] and "not known yet" in dd_lines[1], \
            dd_lines
        assert page.query_selector("#cards tr.best-dd") is None
        lead = page.query_selector("#cards tr.lead-dd .star.lead")
        assert lead is not None and lead.inner_text() == "\u2606"
        assert lead.get_attribute("title").startswith("leads so far: 12 deals are too few")
        assert page.inner_text("#trust").startswith("Which to trust: not double-dummy "
                                                    "yet (12 deals, too few")
        assert page.inner_text("#foot-ranges") == ("intervals 95% (double-dummy's from 12 "
                                                   "deals only, too few to choose a card)")
        # the rollouts' column keeps its best card and its 95% amounts
        assert page.query_selector("#cards tr.best-rollout .star:not(.lead)") is not None
        assert any("95%" in t for t in lines if "club-level" in t)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "too-few-known-wide.png"), full_page=True)
        # a new advice with enough deals: the usual line and footer again
        page.fill("#dd-samples", "1000")
        page.click("#advise")
        assert _wait_state(page) == "done"
        assert page.inner_text("#foot-ranges") == "intervals 95%"
        assert page.inner_text("#trust") == e2e.WHICH_TO_TRUST
    assert p.errors == []



def test_every_level_card_is_named_and_a_level_trump_lead_is_level(server, browser):
    """Three double-dummy deals of seed 15, where J♠, A♠, Q♥ and K♥ are level at the top:
    the words said "J♠ leads so far", "so far J♠ and Q♥ are level" and "a trump lead is
    0.0 points a hand better". Now the headline and the line name all four, and the trump
    lead is level with the best other lead."""
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        page.fill("#seed", "15")
        _paste_and_advise(page, LEAD, 3000, 3)
        assert _wait_state(page) == "done"
        level = "J\u2660, A\u2660, Q\u2665 and K\u2665 are level"
        head = page.inner_text("#answer .headline")
        assert head.endswith(f"too few deals to choose a card (3): {level} so far"), head
        text = page.inner_text("#answer")
        assert f"so far {level}, but the cards' ranges are between " in text, text
        assert "so far a trump lead is level with the best other lead" in text, text
        assert "0.0 points" not in text
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "level-cards-wide.png"), full_page=True)
    assert p.errors == []


def test_cards_the_same_as_the_best_are_named_and_agree(server, browser):
    """A new user's french52 lead: dd marks J♣, Q♣, K♣ and A♣ "= 10♣", the rollouts A♣
    "= K♣", yet the headline read "K♣ (or Q♣, no practical difference) with club-level
    play; with perfect play, 10♣ (a lean)", as if the models disagreed. Now each pick is
    named with the cards the same as it on every deal, and K♣, the same as dd's 10♣, is
    one pick for both models: the headline names it alone."""
    pos = {"rules": "french52", "players": 4, "dealer": 3, "seat": 0, "turnup": "3H",
           "hand": "TC KH TS 5S 9S 2H QS AC KC JC 3S QC KS".split(), "play": []}
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        page.fill("#time", "30")
        _paste_and_advise(page, pos, 3000, 1000)
        assert _wait_state(page, timeout=120_000) == "done"
        head = page.inner_text("#answer .headline")
        text = page.inner_text("#answer")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "same-as-best-wide.png"), full_page=True)
        assert head.startswith("Best card: K\u2663 (or A\u2663: the same on every deal"), head
        assert "with perfect play" not in head, head
        assert "10\u2663 (or J\u2663, Q\u2663, K\u2663, A\u2663: the same on every deal)" \
            in text, text
        assert "disagree" not in text, text
    assert p.errors == []
