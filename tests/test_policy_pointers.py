"""An unknown policy points each user to where that user finds the policies: the command
line to the help of the command in use (tests/test_cli.py), a Python caller to the
module whose docstring lists them, the page's API to the choices themselves; never to
``catchten match --help`` outside the match command. One line each, naming the field."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from catchten_sim.errors import LINE_PREFIX, LINE_WIDTH, CatchTenError

pytest.importorskip("starlette")
import test_serve  # noqa: E402  (after the skip: it imports starlette)

ROOT = Path(__file__).resolve().parents[1]
POSITION = json.loads((ROOT / "examples" / "position-lead.json").read_text())
WIDTH = LINE_WIDTH - len(LINE_PREFIX)


@pytest.mark.parametrize("call, field", [
    (lambda: __import__("catchten_sim").advise(POSITION, policy="expert", samples=8),
     "policy"),
    (lambda: __import__("catchten_sim").advise(POSITION, opponents="expert", samples=8),
     "opponents"),
    (lambda: __import__("catchten_sim").simulate(
        __import__("catchten_sim").Rules(), "expert", n_deals=8), "policy"),
])
def test_python_points_to_the_docstring_that_lists_the_policies(call, field):
    import catchten_sim.policies as policies
    with pytest.raises(CatchTenError) as e:
        call()
    line = e.value.line()
    assert line == f'{field}: unknown policy ("expert"; see: help(catchten_sim.policies))', \
        line
    assert len(line) <= WIDTH
    # the place pointed to lists every policy
    for name in ("``random``", "``heuristic``", "``pimc[:N]``", "``ipimc[:N]``"):
        assert name in policies.__doc__, name


#: the API through Starlette's test client and a one-worker pool: tests/test_serve.py's
#: fixture (an app of this module's own)
client = test_serve.client


@pytest.mark.parametrize("route, body, field", [
    ("/api/advise", {"position": POSITION, "options": {"policy": "expert", "samples": 8}},
     "policy"),
    ("/api/advise/stream", {"position": POSITION, "options": {"opponents": "expert"}},
     "opponents"),
    ("/api/simulate", {"rules": "foster", "players": 4,
                       "options": {"deals": 8, "opponents": "expert"}}, "opponents"),
])
def test_the_page_names_the_choices(client, route, body, field):
    """The page's API has no help to point to: its one line names the policies (a 400 on
    the plain routes, the stream's error event on the streamed one)."""
    r = client.post(route, json=body)
    if route.endswith("/stream"):
        assert r.status_code == 200, r.text
        ev = [b for b in r.text.split("\n\n") if b.startswith("event: error")]
        assert len(ev) == 1, r.text
        got = json.loads(ev[0].split("data: ", 1)[1])
    else:
        assert r.status_code == 400, r.text
        got = r.json()
    assert got["error"] == (f'error: {field}: unknown policy ("expert"; random, heuristic, '
                            'pimc, ipimc)'), got
    assert (got["field"], got["why"]) == (field, "unknown policy")
    assert len(got["error"]) <= LINE_WIDTH and "match" not in got["error"]
