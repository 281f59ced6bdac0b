"""End to end, the page's words and set-up in a real headless Chromium (the server, the
browser and the helpers of tests/test_e2e_serve.py, which is near its size limit): a
double-dummy answer on too few deals says so in its headline."""
from __future__ import annotations

import json

import pytest
import test_e2e_serve as e2e
from test_e2e_serve import ARTIFACTS, CASES, Page, _open, _wait_state

# the fixtures of tests/test_e2e_serve.py (a server of this module's own)
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
    assert p.errors == []
