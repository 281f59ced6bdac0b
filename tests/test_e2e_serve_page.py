"""End to end, the page's words and set-up in a real headless Chromium (the server, the
browser and the helpers of tests/test_e2e_serve.py, which is near its size limit): a
double-dummy answer on too few deals says so in its headline."""
from __future__ import annotations

import json

import pytest
import test_e2e_serve as e2e
from test_e2e_serve import ARTIFACTS, CASES, NOT_LOADED, Page, _open, _wait_state

# the fixtures of tests/test_e2e_serve.py (its server shared, a browser of this module's)
server, browser = e2e.server, e2e.browser

# xdist: the same worker as tests/test_e2e_serve.py (one browser load at a time)
pytestmark = pytest.mark.xdist_group("e2e_serve")

#: the README's opening lead: 12 double-dummy deals do not separate its best card (a
#: position late in a hand is enumerated whole: exact, never too few)
THIN = json.loads((CASES.parent.parent / "examples" / "position-lead.json").read_text())


def _paste_and_advise(page, pos: dict, samples: int, dd_samples: int) -> None:
    page.fill("#samples", str(samples))
    page.fill("#dd-samples", str(dd_samples))
    page.fill("#paste", json.dumps(pos))
    page.click("#load")
    _wait_state(page)


def test_a_dd_answer_on_too_few_deals_says_so_in_the_headline(server, browser):
    """Double-dummy deals 12 (no card separated): the CLI's note "too few deals to choose
    a card (12)" is said in the headline, in words, not only in the Details."""
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        _paste_and_advise(page, THIN, 3000, 12)
        # the run's note (the CLI's), in the Details' words (asked for on their own)
        page.wait_for_function("(document.querySelector('#details-text [data-details="
                               "\"dd\"]') || {textContent: ''}).textContent.includes("
                               "'too few deals to choose a card yet (12)')")
        head = page.inner_text("#answer .headline")
        assert "on too few deals to choose a card (12)" in head, head
        lines = page.inner_text("#answer")
        assert "only 12 deals: too few to choose a card (give it more time); so far" \
            in lines, lines
        assert "--" not in lines
        # double-dummy has not chosen a card: no disagreement with the rollouts is claimed
        assert page.query_selector("#answer .disagree") is None, lines
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "too-few-wide.png"), full_page=True)
        # its ranges: the run's own (the CLI's: Student's t with so few deals)
        page.click("#details summary")
        dd = page.inner_text('#details-text [data-details="dd"]')
        assert "95% ranges, each value \u00b1 2.20 standard errors (more than the usual " \
            "1.96: with only 12 deals the spread is itself uncertain (Student's t)" in dd, dd
        page.locator("#details").screenshot(path=str(ARTIFACTS / "too-few-details.png"))
    assert p.errors == []


def test_rule_switches_in_words_and_only_the_presets(server, browser):
    """The switch list names each switch in words (no game_at_once), the key kept on the
    input for the API; a switch is offered at the player counts where it acts (foster's
    "Deal 2 or 3 players" at 2 players, not at 4); french52 is not offered foster's
    player-count switches; an error of two switches that cannot combine names them in
    words too."""
    p = Page(browser)
    with p as page:
        _open(page, server)
        page.click("#switches-box summary")
        shown = lambda: {e.get_attribute("data-switch")          # noqa: E731
                         for e in page.query_selector_all("#switches [data-switch]")}
        assert "game_at_once" in shown() and "everyone_alone" in shown(), shown()
        assert "small_deal" not in shown(), shown()
        text = page.inner_text("#switches")
        assert "_" not in text and "Win at once on reaching the target" in text, text
        page.select_option("#players", "2")
        page.wait_for_selector('#switches [data-switch="small_deal"]')
        assert "everyone_alone" not in shown() and "set_scoring" in shown(), shown()
        page.select_option("#players", "4")
        page.wait_for_function("!document.querySelector('#switches [data-switch="
                               "\"small_deal\"]')")
        page.select_option("#preset", "french52")
        page.wait_for_function("document.querySelector('#switches [data-switch="
                               "\"target\"]').value === '40'")
        assert not shown() & {"keep_six_of_spades", "small_deal", "set_scoring",
                              "removed_six", "six_players"}, shown()
        assert {"game_at_once", "target", "must_trump"} <= shown()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "switches-french52-wide.png"), full_page=True)
        # two switches that cannot combine: the error names both in words
        page.check('#switches [data-switch="game_at_once"]')
        page.wait_for_function("document.querySelector('#switches-count').textContent"
                               " === '(1 changed)'")       # the list drawn again
        page.select_option('#switches [data-switch="revoke"]', '"hand"')
        page.wait_for_selector("#error:not([hidden])")
        err = page.inner_text("#error")
        assert err.startswith('Rule switches: bad value ("Win at once on reaching the '
                              'target" needs "A revoke costs" = game'), err
        assert "_" not in err
    assert [e for e in p.errors if "status of 400" not in e] == []


def test_a_pasted_record_is_checked_whole_before_any_of_it_is_shown(server, browser):
    """A hand record with a bad card, a game record: refused whole, one line, the
    all-hands view not opened (nor, once open, changed); a good record opens it."""
    record = json.loads((CASES / "dd" / "foster4_left4_lead_01.json").read_text())
    bad = {**record, "hands": [["XX"] + record["hands"][0][1:]] + record["hands"][1:]}
    game = json.loads((CASES.parent.parent / "examples" / "game.json").read_text())
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)

        def paste(data: dict) -> str:
            page.fill("#paste", json.dumps(data))
            page.click("#load")
            page.wait_for_selector("#error:not([hidden])")
            return page.inner_text("#error")
        assert paste(bad) == (NOT_LOADED + 'Hands: malformed card '
                                          '(hands[0][0]="XX")')
        assert page.is_hidden("#deal-view")
        assert paste(game).startswith(NOT_LOADED + "The hand record: not a hand "
                                              "record (this is a game record")
        assert page.is_hidden("#deal-view")
        # a good record opens; a bad one after it leaves it as it was
        page.fill("#paste", json.dumps(record))
        page.click("#load")
        page.wait_for_selector("#hands button[data-dd]")
        _wait_state(page)
        cards = page.inner_text("#hands")
        assert paste(bad).startswith(NOT_LOADED)
        assert page.is_visible("#deal-view") and page.inner_text("#hands") == cards
        # the message is on screen, not above it (the Load button is far below the banner)
        # (waited for: a smooth scroll to the all-hands view may still be settling)
        page.wait_for_function("(() => { const r = document.querySelector('#error')"
                               ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= "
                               "innerHeight; })()", timeout=5000)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "paste-refused-wide.png"))
    assert [e for e in p.errors if "status of 400" not in e] == []


def test_a_solve_stopped_early_shows_its_proven_ranges(server, browser):
    """A hand record whose solve stops at its node budget (a hard french52 deal takes the
    server's 200 M nodes, about 40 s; here the API's answer is the solver's own at a
    budget of 20,000 nodes): each card unresolved shows its proven range, not "–"; a
    card proven exact its number; a line says the search stopped and what a range means."""
    from catchten_sim.solve import solve
    from test_serve import HARD_F52
    bounded = solve(HARD_F52, max_nodes=20_000).to_dict()
    assert bounded["exact"] is False
    p = Page(browser)
    with p as page:
        _open(page, server, load_box=True)
        page.route("**/api/solve", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(bounded)))
        page.fill("#paste", json.dumps(HARD_F52))
        page.click("#load")
        page.wait_for_selector("#hands button[data-range], #hands button[data-dd]")
        _wait_state(page)
        note = page.inner_text("#deal-bounds")
        assert note.startswith("The search stopped at its node budget before every value "
                               "was exact: a card showing a range"), note
        for row in bounded["cards"]:
            b = page.query_selector(f'#hands button[data-card="{row["card"]}"]')
            shown = b.query_selector(".dv").inner_text()
            lo, hi = row["range"]
            if row["value"] is None:
                assert shown == f"{lo:+d}..{hi:+d}", (row, shown)
                assert b.get_attribute("data-range") == f"{lo} {hi}"
            else:
                assert shown == f"{row['value']:+d}" and b.get_attribute("data-dd") == \
                    str(row["value"]), (row, shown)
        page.locator("#deal-view").screenshot(path=str(ARTIFACTS / "deal-bounded.png"))
        # a card played from it shows no loss (its solve stopped early: the best value is
        # not known; it showed "-−14"), the check says it could not check it, and no line
        # was asked for (a bounded solve has none: the request only kept a worker busy)
        asked = []
        page.on("request", lambda r: asked.append(r.post_data or "")
                if r.url.endswith("/api/solve") else None)
        exact = [r["card"] for r in bounded["cards"] if r["value"] is not None]
        card = (exact or [bounded["cards"][0]["card"]])[0]
        page.evaluate("""() => { window.__lines = []; window.__inert = [];
          new MutationObserver(() => { window.__lines.push($line()); }).observe(
            document.querySelector('#deal-line'), {childList: true, characterData: true,
                                                   subtree: true});
          function $line() { window.__inert.push(document.querySelector('#hands').inert);
                             return document.querySelector('#deal-line').textContent; }
        }""")
        page.click(f'#hands button[data-card="{card}"]')
        page.wait_for_selector("#deal-played button.chip")
        _wait_state(page)
        # while the new position was solved the page said so and took no card
        lines = page.evaluate("window.__lines")
        assert lines and lines[0].startswith("Solving double-dummy"), lines
        assert page.evaluate("window.__inert")[0] is True
        assert page.evaluate("document.querySelector('#hands').inert") is False
        chip = page.inner_text("#deal-played button.chip")
        assert "\u2212" not in chip and "-" not in chip, chip
        page.click("#deal-check")
        page.wait_for_selector("#deal-check-out:not([hidden])")
        out = page.inner_text("#deal-check-out")
        assert out == ("Could not check the 1 played card: the solve stopped before the "
                       "values were exact."), out
        assert not any('"line": true' in a or '"line":true' in a for a in asked), asked
        page.locator("#deal-view").screenshot(path=str(ARTIFACTS / "deal-bounded-played.png"))
    assert p.errors == []
