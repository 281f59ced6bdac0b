"""``catchten serve``'s JSON API through Starlette's test client (the real worker pool):
every worked case answers what the CLI prints with ``--json``; bad input is a 4xx with the
CLI's one line and the server keeps serving; the guards (Host, content type, body size,
no CORS); the bounded queue (503) and cancel."""
from __future__ import annotations

import asyncio
import json
import re
import threading
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")          # starlette's note on httpx / httpx2
    from starlette.testclient import TestClient

from click.testing import CliRunner

from catchten_sim.cli import cli
from catchten_sim.errors import said_why
from catchten_sim.serve import create_app
from catchten_sim.serve.pool import Pool
from catchten_sim.serve.words import WHICH_TO_TRUST, plain_answer

# xdist: one app (module fixture), on one worker
pytestmark = pytest.mark.xdist_group("serve")

CASES = Path(__file__).resolve().parent / "cases"
ADVISE = sorted(p for p in (CASES / "advise").glob("*.json")
                if not p.name.endswith(".expected.json") and p.name != "index.json")
DD = sorted(p for p in (CASES / "dd").glob("*.json")
            if not p.name.endswith(".expected.json") and p.name != "index.json")
TIMING = ("elapsed_s", "compile_s")
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "position-lead.json"


def _cli(*args: str, stdin: str | None = None):
    try:
        runner = CliRunner(mix_stderr=False)    # click < 8.2
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, list(args), input=stdin, catch_exceptions=False)


def _untimed(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in TIMING}


@pytest.fixture(scope="module")
def client():
    app = create_app(workers=1, queue=2, threads=1, warm=False,
                     allowed_hosts=("testserver",))
    with TestClient(app) as c:
        yield c


def _advise_case_ids():
    return [p.stem for p in ADVISE]


@pytest.mark.parametrize("path", ADVISE, ids=_advise_case_ids())
@pytest.mark.parametrize("flags", [("--evaluator", "dd"),
                                   ("--samples", "1500", "--seed", "7", "--exact-max", "0")],
                         ids=["dd", "rollout"])
def test_advise_equals_cli(client, path, flags):
    cli_res = _cli("advise", str(path), "--json", *flags)
    opts = {flags[i].lstrip("-"): flags[i + 1] for i in range(0, len(flags), 2)}
    opts = {k: (v if k == "evaluator" else int(v)) for k, v in opts.items()}
    r = client.post("/api/advise", json={"position": json.loads(path.read_text()),
                                         "options": opts})
    if path.name.startswith("invalid_"):
        # --json prints the error object; without it, the one line the API returns
        assert cli_res.exit_code == 2 and r.status_code == 400, r.text
        obj = json.loads(cli_res.stdout)
        assert (r.json()["field"], r.json()["why"]) == (obj["field"], obj["why"])
        assert r.json()["error"] == _cli("advise", str(path), *flags).stderr.strip()
        return
    assert cli_res.exit_code == 0, cli_res.stderr
    assert r.status_code == 200, r.text
    assert _untimed(r.json()) == _untimed(json.loads(cli_res.stdout))


@pytest.mark.parametrize("path", DD, ids=[p.stem for p in DD])
def test_solve_equals_cli(client, path):
    cli_res = _cli("solve", str(path), "--json")
    assert cli_res.exit_code == 0, cli_res.stderr
    r = client.post("/api/solve", json={"record": json.loads(path.read_text())})
    assert r.status_code == 200, r.text
    assert r.json() == json.loads(cli_res.stdout)
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    assert r.json()["value"] == expected["value"]


def test_solve_line_equals_cli(client):
    path = DD[0]
    cli_res = _cli("solve", str(path), "--json", "--line")
    r = client.post("/api/solve", json={"record": json.loads(path.read_text()),
                                        "options": {"line": True}})
    assert r.json() == json.loads(cli_res.stdout) and "line" in r.json()


def test_advise_options_as_flags_spelled(client):
    """``exact-max`` (the flag's spelling) and ``exact_max`` are the same option, and the
    explain deals come as with --explain."""
    pos = json.loads(EXAMPLE.read_text())
    a = client.post("/api/advise", json={"position": pos, "options": {
        "samples": 600, "exact-max": 0, "explain": 2, "early-stop": False}}).json()
    b = client.post("/api/advise", json={"position": pos, "options": {
        "samples": 600, "exact_max": 0, "explain": 2, "early_stop": False}}).json()
    c = json.loads(_cli("advise", str(EXAMPLE), "--json", "--samples", "600", "--exact-max",
                        "0", "--explain", "2", "--no-early-stop").stdout)
    assert _untimed(a) == _untimed(b) == _untimed(c)
    assert len(a["explain"]) == 2 and a["samples"] == 600


@pytest.mark.parametrize("body, field", [
    ({"position": {}, "options": {"evaluater": "dd"}}, "evaluater"),
    ({"position": {}, "extra": 1}, "extra"),
    ({"options": {}}, "position"),
    ([1, 2], "body"),
    ({"position": "examples/position-lead.json"}, "position"),   # never a file name
    ({"position": str(EXAMPLE)}, "position"),
    ({"position": json.loads(EXAMPLE.read_text()), "options": {"samples": 10 ** 30}},
     "samples"),
    ({"position": json.loads(EXAMPLE.read_text()), "options": {"time": 10 ** 6}}, "time"),
    ({"position": json.loads(EXAMPLE.read_text()), "options": {"policy": "psychic"}},
     "policy"),
    ({"position": {**json.loads(EXAMPLE.read_text()), "hand": ["JS", "JS"]}}, "hand"),
    # "false" is a string (truthy): early stopping would run, the opposite of what was asked
    ({"position": json.loads(EXAMPLE.read_text()), "options": {"early_stop": "false"}},
     "early_stop"),
    ({"position": json.loads(EXAMPLE.read_text()), "options": {"early_stop": 0}},
     "early_stop"),
])
def test_bad_input_is_one_line_and_the_server_goes_on(client, body, field):
    r = client.post("/api/advise", json=body)
    assert r.status_code == 400, r.text
    err = r.json()
    assert err["field"] == field
    assert err["error"].startswith(f"error: {field}: ") and "\n" not in err["error"]
    assert "Traceback" not in r.text
    ok = client.post("/api/advise", json={"position": json.loads(EXAMPLE.read_text()),
                                          "options": {"samples": 300}})
    assert ok.status_code == 200


def test_bad_input_line_is_the_clis(client):
    pos = {**json.loads(EXAMPLE.read_text()), "turnup": "ZZ"}
    r = client.post("/api/advise", json={"position": pos})
    res = _cli("advise", "-", stdin=json.dumps(pos))
    assert res.exit_code == 2 and r.status_code == 400
    assert r.json()["error"] == res.stderr.strip()


@pytest.mark.parametrize("route, body, field, why", [
    ("advise", {"options": {"time": "x"}}, "time", "not a number"),
    ("advise", {"options": {"time": True}}, "time", "not a number"),
    ("advise", {"options": {"time": 0}}, "time", "out of range"),
    ("advise", {"options": {"margin": "1"}}, "margin", "not a number"),
    ("advise", {"options": {"samples": 2.5}}, "samples", "not a whole number"),
    ("advise", {"position": {"seat": 0.0}}, "seat", "not a whole number"),
    ("advise", {"position": {"seat": "1"}}, "seat", "not a whole number"),
    ("advise", {"position": {"seat": 4}}, "seat", "seat out of range"),
    ("advise", {"position": {"dealer": 1.5}}, "dealer", "not a whole number"),
    ("advise", {"position": {"players": "4"}}, "players", "not a whole number"),
    ("deal", {"players": "4"}, "players", "not a whole number"),
    ("deal", {"players": 4.0}, "players", "not a whole number"),
    ("deal", {"index": "0"}, "index", "not a whole number"),
])
def test_numbers_are_checked_for_type_before_range(client, route, body, field, why):
    """A number of the wrong type says so (the why and the detail agree), before any
    range check: "x" is not a number, 0.0 is not a whole number (JSON writes 0)."""
    if route == "advise":
        pos = {**json.loads(EXAMPLE.read_text()), **body.get("position", {})}
        body = {"position": pos, "options": {"samples": 100, **body.get("options", {})}}
    r = client.post(f"/api/{route}", json=body)
    assert r.status_code == 400, r.text
    err = r.json()
    assert (err["field"], err["why"]) == (field, why), err
    said = said_why(field, why)             # the line says the field's word once
    assert err["error"].startswith(f"error: {field}: {said} (") and "\n" not in err["error"]


#: a record's errors keep the reasons ../shared/FORMATS.md lists ("Errors in records":
#: a missing players is "players out of range", missing hands "wrong number of hands"),
#: the detail saying missing
RECORD_MISSING = {"players": "players out of range", "dealer": "dealer out of range",
                  "hands": "wrong number of hands"}


@pytest.mark.parametrize("field, record", [
    ("players", {"rules": "foster"}),
    ("dealer", {"rules": "foster", "players": 4}),
    ("hands", {"rules": "foster", "players": 4, "dealer": 0})])
def test_a_record_missing_a_field_keeps_the_formats_reason_and_says_missing(client, field,
                                                                            record):
    r = client.post("/api/solve", json={"record": record})
    assert r.status_code == 400, r.text
    err = r.json()
    assert (err["field"], err["why"]) == (field, RECORD_MISSING[field]), err
    assert "missing" in err["error"] and "\n" not in err["error"], err


@pytest.mark.parametrize("route, body, field", [
    ("next", {"rules": "foster", "players": 4}, "dealer"),
    ("next", {"rules": "foster", "players": 4, "dealer": 0}, "seat"),
    ("advise", {"position": {"rules": "foster", "players": 4}}, "dealer"),
    ("advise", {"position": {"rules": "foster"}}, "players"),
])
def test_a_missing_field_says_missing(client, route, body, field):
    """A field left out is said as missing, not as out of range (it was "dealer: out of
    range (dealer missing ...)"): 400, one line naming the field."""
    r = client.post(f"/api/{route}", json=body)
    assert r.status_code == 400, r.text
    err = r.json()
    assert (err["field"], err["why"]) == (field, "missing"), err
    assert err["error"].startswith(f"error: {field}: missing (") and "\n" not in err["error"]


def test_malformed_json_and_wrong_content_type(client):
    r = client.post("/api/advise", content=b'{"position": ', headers={
        "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("error: body: not JSON")
    r = client.post("/api/advise", content=b'{"position": NaN}', headers={
        "content-type": "application/json"})
    assert r.status_code == 400
    # a form post from another site is text/plain: refused (no CORS pre-flight passes)
    r = client.post("/api/advise", content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 415


def test_body_size_limit(client):
    from catchten_sim.serve.app import MAX_BODY
    big = b'{"position": "' + b"x" * MAX_BODY + b'"}'
    r = client.post("/api/advise", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "too large" in r.json()["error"]


def test_host_header_checked_and_no_cors(client):
    r = client.get("/api/status", headers={"host": "evil.example:8765"})
    assert r.status_code == 421 and r.json()["field"] == "host"
    r = client.get("/api/status", headers={"host": "localhost:8765",
                                           "origin": "http://evil.example"})
    assert r.status_code == 200
    assert not any(k.lower().startswith("access-control") for k in r.headers)
    r = client.options("/api/advise", headers={"origin": "http://evil.example",
                                               "access-control-request-method": "POST"})
    assert r.status_code == 405
    assert not any(k.lower().startswith("access-control") for k in r.headers)


STATIC = Path(__file__).resolve().parent.parent / "catchten_sim" / "serve" / "static"


def _page_modules(client) -> dict[str, str]:
    """The page's scripts as served: app.js and every module it imports, followed from
    the served text (the same walk the browser does)."""
    import re
    todo, seen = ["app.js"], {}
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        # a module script is refused by the browser without a JavaScript content type
        assert "javascript" in r.headers["content-type"], (name, r.headers["content-type"])
        seen[name] = r.text
        todo += re.findall(r'^import [^;]* from "\./([\w-]+\.js)";', r.text, re.M)
    return seen


def test_page_and_static_served(client):
    r = client.get("/")
    assert r.status_code == 200 and "<title>Catch the Ten" in r.text
    assert '<script type="module" src="/static/app.js">' in r.text
    assert client.get("/static/app.css").status_code == 200
    assert client.get("/static/../serve/api.py").status_code == 404
    modules = _page_modules(client)
    # every module is a file of the static directory itself (pyproject's package-data
    # "static/*" ships it), none fetched from outside, each within the module limit
    assert set(modules) == {p.name for p in STATIC.glob("*.js")}, sorted(modules)
    for name, text in modules.items():
        assert "http://" not in text and "https://" not in text, name
        assert len(text.splitlines()) <= 900, name


def _events(client, body: dict) -> list[tuple[str, dict]]:
    """The server-sent events of ``/api/advise/stream`` for ``body``: (name, data)."""
    events = []
    with client.stream("POST", "/api/advise/stream", json=body) as s:
        name = None
        for line in s.iter_lines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                events.append((name, json.loads(line[6:])))
    return events


def test_stream_progress_then_the_same_result(client):
    body = {"position": json.loads(EXAMPLE.read_text()),
            "options": {"samples": 2000, "early_stop": False, "seed": 3}}
    events = _events(client, body)
    names = [e[0] for e in events]
    assert names[0] == "queued" and names[-1] == "result" and "progress" in names
    last = [d for n, d in events if n == "progress"][-1]
    assert last == {"done": 2000, "total": 2000}
    plain = client.post("/api/advise", json=body).json()
    assert _untimed(events[-1][1]) == _untimed(plain)
    # the values so far after each batch: the last ones are the answer's means
    running = [d for n, d in events if n == "running"]
    assert len(running) >= 2 and running[-1]["done"] == 2000
    assert running[-1]["means"] == {c["card"]: c["diff"]["mean"] for c in plain["candidates"]}


def test_stream_error_is_the_one_line(client):
    r = client.post("/api/advise/stream", json={"position": {}, "options": {"x": 1}})
    assert r.status_code == 400 and r.json()["field"] == "x"


def test_deal_and_rules(client):
    rec = client.post("/api/deal", json={"seed": 5, "players": 4}).json()
    assert len(rec["hands"]) == 4 and rec["play"] == []
    solved = client.post("/api/solve", json={"record": {**rec, "play": []}})
    assert solved.status_code == 200
    info = client.post("/api/rules", json={"rules": "jaques", "players": 4}).json()
    assert info["players_allowed"] == [4, 6]
    assert any(s["name"] == "dealer_declares" for s in info["switches"])
    bad = client.post("/api/rules", json={"rules": "jaques", "players": 3})
    assert bad.status_code == 400 and bad.json()["field"] == "players"


def test_full_queue_is_503_and_none_lost():
    """One worker and one queue place: of six slow requests at once, some are refused
    with 503 and a message, every other one is answered in full."""
    app = create_app(workers=1, queue=1, threads=1, warm=False,
                     allowed_hosts=("testserver",))
    pos = json.loads(EXAMPLE.read_text())
    body = {"position": pos, "options": {"samples": 10 ** 7, "early_stop": False,
                                         "time": 1.5, "exact_max": 0}}
    out: list = []
    with TestClient(app) as c:
        def go():
            r = c.post("/api/advise", json=body)
            out.append((r.status_code, r.json()))
        ts = [threading.Thread(target=go) for _ in range(6)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(120)
    codes = sorted(code for code, _ in out)
    assert len(out) == 6
    assert set(codes) <= {200, 503} and 503 in codes and 200 in codes
    for code, d in out:
        if code == 503:
            assert d["error"].startswith("error: busy: ")
        else:
            assert d["stop"] == "time" and d["samples"] > 0


#: an advice that runs until stopped (or 60 s)
ENDLESS = {"position": json.loads(EXAMPLE.read_text()),
           "options": {"samples": 10 ** 7, "early_stop": False, "time": 60, "exact_max": 0}}


def _with_pool(work):
    """``await work(pool)`` with a one-worker pool, closed after."""
    async def go():
        pool = Pool(workers=1, queue=1, threads=1, warm=False)
        await pool.start()
        try:
            return await work(pool)
        finally:
            await pool.close()
    return asyncio.run(go())


@pytest.mark.serial     # times itself
def test_cancel_stops_a_running_advice():
    """Cancel interrupts the worker: the run returns what it finished (stop
    ``interrupted``), long before its own time limit."""
    async def work(pool):
        job = pool.submit("advise", ENDLESS, 60)
        while True:                   # the first progress: it is running
            ev = await asyncio.wait_for(job.events.get(), 60)
            if ev[0] == "progress":
                break
        t0 = asyncio.get_running_loop().time()
        job.cancel()
        ev = await asyncio.wait_for(job.result(), 20)
        took = asyncio.get_running_loop().time() - t0
        # the worker takes the next job afterwards
        job2 = pool.submit("deal", {"seed": 2}, 30)
        return ev, took, await asyncio.wait_for(job2.result(), 60)
    ev, took, ev2 = _with_pool(work)
    assert ev[0] in ("result", "cancelled")
    if ev[0] == "result":
        assert ev[1]["stop"] == "interrupted" and ev[1]["partial"] is True
    assert took < 10
    assert ev2[0] == "result" and len(ev2[1]["hands"]) == 4


def test_plain_words_say_units_and_quote_each_run():
    """The plain answer: units said, no "diff"/"paired"/look counts, each model's answer
    from its own run (the rollout run's NO is quoted as NO, not as the dd run's other
    rollouts)."""
    def run(evaluator, mean, lo, hi, best):
        return {"evaluator": evaluator, "policies": ["heuristic"] * 4, "objective": "diff",
                "measure": "our side's points minus the opponents'",
                "best": best, "margin": {"a": best, "b": "7D", "mean": 1.0, "ci95": [0.4, 1.6],
                                         "verdict": "separated", "practical_margin": 0.25},
                "trump_lead": {"a": "JS", "b": "7D", "mean": mean, "ci95": [lo, hi],
                               "verdict": "separated", "practical_margin": 0.25},
                "candidates": []}
    w = plain_answer(run("rollout", -0.66, -1.1, -0.2, "7D"), run("dd", 3.5, 1.8, 5.2, "JS"))
    assert w["trump_line"] == (
        "Lead a trump: yes, about 3.5 points a hand better (95%: 1.8 to 5.2) if everyone "
        "plays perfectly after it (all hands seen); with club-level play after it (the "
        "heuristic policy), no, about 0.7 points a hand worse (95%: 0.2 to 1.1).")
    text = " ".join(w["best"] + [w["trump_line"]])
    for word in ("diff", "paired", "look", " z "):
        assert word not in text
    assert "disagree on the best card and whether to lead a trump" in w["disagree"]
    same = run("rollout", 0.1, -0.1, 0.2, "JS")
    same["trump_lead"]["verdict"] = "no practical difference"
    w2 = plain_answer(same, run("dd", 3.5, 1.8, 5.2, "JS"))
    assert w2["trump_line"].endswith("with club-level play after it (the heuristic policy), "
                                     "no difference (within 0.2 points a hand).")
    assert w2["disagree"] == ""


def _run(evaluator, best, b, verdict, objective="diff"):
    from catchten_sim.explain import measure_words
    return {"evaluator": evaluator, "policies": ["heuristic"] * 4, "objective": objective,
            "measure": measure_words(objective, evaluator, 2),
            "best": best, "margin": {"a": best, "b": b, "mean": 1.0, "ci95": [0.4, 1.6],
                                     "verdict": verdict, "practical_margin": 0.25},
            "trump_lead": None, "candidates": []}


def test_no_disagreement_within_the_other_runs_tied_best():
    """Issue 24 review 4b: A♠ best with club-level play, J♠ (or A♠, no practical
    difference) with perfect play: the two agree; the same picks, both separated, do not."""
    ro = _run("rollout", "AS", "JS", "separated")
    tied = _run("dd", "JS", "AS", "no practical difference")
    assert plain_answer(ro, tied)["disagree"] == ""
    assert "disagree on the best card" in plain_answer(ro, _run("dd", "JS", "AS",
                                                                "separated"))["disagree"]
    # a card tied with the best on every deal (equivalent_to) counts as best too
    eq = _run("dd", "JS", "QS", "separated")
    eq["candidates"] = [{"card": "JS"}, {"card": "AS", "equivalent_to": "JS"}]
    assert plain_answer(ro, eq)["disagree"] == ""


def test_different_objectives_are_said_not_called_a_disagreement():
    """Review 4a: with a score the rollouts rank by P(win), dd by points."""
    ro = _run("rollout", "6D", "9S", "separated", "p_win")
    ro["candidates"] = [{"card": "6D", "p_win": {"mean": 0.3, "ci95": [0.2, 0.4],
                                                 "verdict": "separated"}}]
    w = plain_answer(ro, _run("dd", "9S", "6D", "separated"))
    assert "disagree" not in w["disagree"]
    assert ("the rollouts rank the cards by P(winning the game), double-dummy (dd) by our "
            "side's points minus the opponents'") in w["disagree"]


def test_words_take_the_apis_own_answers(client):
    """/api/words' checks accept what /api/advise answers (with a score: P(win) rollouts
    beside points dd, said as different questions, not as a disagreement)."""
    pos = json.loads((EXAMPLE.parent / "position-score.json").read_text())
    answers = [client.post("/api/advise", json={"position": pos, "options": opts})
               for opts in ({"samples": 600, "seed": 1},
                            {"evaluator": "dd", "samples": 16, "seed": 1})]
    for r in answers:            # (an error answer says why, not KeyError 'objective')
        assert r.status_code == 200, r.text
    ro, dd = (r.json() for r in answers)
    assert ro["objective"] == "p_win" and dd["objective"] == "diff"
    for body in ({"rollout": ro, "dd": dd}, {"rollout": ro}, {"dd": dd, "rollout": None}):
        r = client.post("/api/words", json=body)
        assert r.status_code == 200, r.text
    w = client.post("/api/words", json={"rollout": ro, "dd": dd}).json()
    assert w["trust"] == WHICH_TO_TRUST          # said under the page's values
    assert "disagree" not in w["disagree"]
    assert w["p_win"].startswith("P(winning the game) after ")


@pytest.mark.parametrize("body,field", [
    ({"rollout": {"x": 1}}, "rollout.best"),
    ({"rollout": [1], "dd": "x"}, "rollout"),
    ({"rollout": {"best": 7}}, "rollout.best"),
    ({"rollout": {"best": "7D"}}, "rollout.evaluator"),     # was "With the play of  after it"
    ({"rollout": {"best": "7D", "evaluator": "rollout"}}, "rollout.policies"),
    ({"rollout": {"best": "7D", "evaluator": "rollout", "policies": "heuristic"}},
     "rollout.policies"),
    ({"rollout": {"best": "7D", "evaluator": "rollout", "policies": ["heuristic"],
                  "margin": {"mean": 1}}}, "rollout.margin.ci95"),
    ({"rollout": {"best": "7D", "evaluator": "rollout", "policies": ["heuristic"],
                  "objective": "p_win"}}, "rollout.candidates"),
    ({"dd": {"best": "7D", "evaluator": "dd", "trump_lead": {"mean": "1", "ci95": [0, 1],
                                                             "verdict": "x"}}},
     "dd.trump_lead.mean"),
    ({}, "rollout"),
    ({"rollout": None, "ddd": None}, "ddd"),
    # the answer says its units (its measure): the words quote them, never guess them
    ({"rollout": {"best": "7D", "evaluator": "rollout", "policies": ["heuristic"]}},
     "rollout.measure"),
])
def test_words_checks_its_input(client, body, field):
    """Review 3: /api/words refuses a body it cannot read, naming the field (no 500)."""
    r = client.post("/api/words", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["field"] == field and "\n" not in r.json()["error"]


@pytest.mark.parametrize("route", ["/api/advise", "/api/solve", "/api/words", "/api/rules"])
@pytest.mark.parametrize("depth", [33, 1000, 100_000])
def test_deep_nesting_is_a_400_not_a_traceback(client, route, depth):
    """Review 2: deeply nested bodies are refused with the CLI's "nested too deeply" before
    they are parsed (no RecursionError, no 500)."""
    body = '{"position": ' + "[" * depth + "]" * depth + "}"
    r = client.post(route, content=body.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["why"] == "nested too deeply"
    assert "more than 32 deep" in r.json()["error"]
    # brackets inside strings do not count
    r = client.post("/api/rules", json={"rules": "[" * 100})
    assert r.status_code == 400 and r.json()["why"] != "nested too deeply"


def test_page_measure_words_are_the_clis(client):
    """Review 6: the table headers say what the words say; mend4: the page's units said
    "minus the best opponents'" with two sides and "minus the others'" beside the CLI's
    "minus opponents": they are now the server's words, the CLI's (/api/rules
    ``measures``, an answer's own ``measure``, explain.measure_words), in the field's
    terms; no page file spells a unit of its own."""
    want = {4: {"diff": "our side's points minus the opponents'",
                "dd": "our side's points minus the opponents'",
                "solve": "its points minus the opponents'"},
            6: {"diff": "our side's points minus the best opponents'",
                "dd": "our side's points minus the opponents' together",
                "solve": "its points minus the opponents' together"}}
    for players, words in want.items():
        m = client.post("/api/rules", json={"players": players}).json()["measures"]
        assert {k: m[k] for k in words} == words
        assert (m["points"], m["p_win"]) == ("our side's points", "P(winning the game)")
    for f in STATIC.iterdir():
        text = f.read_text()
        assert not any(w in text for w in ("others'", "opponents'", "side's points")), f


def test_solve_never_reads_a_file(client):
    path = str(DD[0])
    r = client.post("/api/solve", json={"record": path})
    assert r.status_code == 400 and r.json()["field"] == "record"


def test_simulate_equals_cli(client):
    res = _cli("simulate", "--players", "3", "--deals", "3000", "--seed", "4", "--json",
               "--no-progress")
    assert res.exit_code == 0, res.stderr
    r = client.post("/api/simulate", json={"players": 3, "options": {"deals": 3000,
                                                                     "seed": 4}})
    assert r.status_code == 200, r.text
    timing = ("elapsed_s", "compile_s", "deals_per_s", "threads")
    want = {k: v for k, v in json.loads(res.stdout).items() if k not in timing}
    assert {k: v for k, v in r.json().items() if k not in timing} == want
    big = client.post("/api/simulate", json={"options": {"deals": 10 ** 9}})
    assert big.status_code == 400 and big.json()["field"] == "deals"


def test_simulate_with_figures_draws_the_reports_figures(client):
    """``"figures": true`` adds the report's figures of the run as PNG data URLs; the rest
    of the answer is the one without the option (which has no ``figures`` key)."""
    import base64
    import struct
    body = {"players": 3, "options": {"deals": 2000, "seed": 5}}
    plain = client.post("/api/simulate", json=body)
    assert plain.status_code == 200, plain.text
    assert "figures" not in plain.json()
    r = client.post("/api/simulate", json={**body, "options": {**body["options"],
                                                               "figures": True}})
    assert r.status_code == 200, r.text
    d = r.json()
    figs = d.pop("figures")
    timing = ("elapsed_s", "compile_s", "deals_per_s", "threads")
    assert _strip(d, timing) == _strip(plain.json(), timing)
    names = [f["name"] for f in figs]
    assert names[:4] == ["summary", "points_distribution", "seat_advantage", "convergence"]
    assert "fate_by_holder" in names
    for f in figs:
        assert f["title"] and f["title"] != f["name"], f["name"]
        head, b64 = f["png"].split(",", 1)
        assert head == "data:image/png;base64"
        png = base64.b64decode(b64, validate=True)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
        w, h = struct.unpack(">II", png[16:24])
        assert 600 <= w <= 2000 and 400 <= h <= 1500, (f["name"], w, h)
        assert len(png) > 10_000, f["name"]
    lo, hi = (f"{100 * x:.2f}%" for x in d["ten"]["wilson95"])   # this run's numbers
    assert f"(95% CI {lo}\u2013{hi})" in figs[0]["title"], figs[0]["title"]
    bad = client.post("/api/simulate", json={"options": {"deals": 10, "figures": "yes"}})
    assert bad.status_code == 400 and bad.json()["field"] == "figures"


def _strip(d: dict, keys: tuple[str, ...]) -> dict:
    return {k: v for k, v in d.items() if k not in keys}


HARD_F52 = {"rules": "french52", "players": 4, "dealer": 0, "turnup": "AC", "play": [],
            "hands": [s.split() for s in (
                "4S 7S 9S KS 3H 4H 8H TH JH 7C 9C KC AC",
                "TS AS 7H KH 2D 3D 6D 9D JD KD 3C JC QC",
                "2S 8S JS QS 2H 5H 4D 5D 8D 2C 5C 6C 8C",
                "3S 5S 6S 6H 9H QH AH 7D TD QD AD 4C TC")]}


def _stopped_past_its_limit(pool, kind: str, body: dict, first: str):
    """Submit a job with a long limit; once it runs (its event ``first``), its limit is
    set to the seconds it has run since its own start plus 0.5, so the watchdog stops it
    while it works (under load, a 1 s limit from the start could fall in the worker's
    first imports, where an interrupt is no test of the watchdog). Returns the final
    event and the seconds from the job's start to it."""
    import time

    async def go():
        job = pool.submit(kind, body, 60.0)
        while (await asyncio.wait_for(job.events.get(), 120))[0] != first:
            pass
        job.time_limit = time.monotonic() - job.started + 0.5
        ev = await asyncio.wait_for(job.result(), 60)
        return ev, time.monotonic() - job.started, job
    return go()


def test_a_job_past_its_time_limit_is_stopped(monkeypatch):
    """The watchdog interrupts a job running past its time limit (plus the grace),
    counted from the job's own start, never before: an advice returns what it finished,
    marked partial; a job with nothing finished is the error ``time: past the limit``
    (HTTP 504)."""
    from catchten_sim.serve import pool as pool_mod
    monkeypatch.setattr(pool_mod, "GRACE_S", 0.0)
    monkeypatch.setattr(pool_mod, "KILL_AFTER_S", 1.0)
    # a french52 opening lead whose solve runs for longer than the test waits: deal #0 of
    # benchmarks/bench_solve.py's french52 set (over 40 M nodes; french52_04 of the cases,
    # used before, solves in about a second, so its solve could end before the limit)
    rec = HARD_F52

    async def work(pool):
        advice = await _stopped_past_its_limit(pool, "advise", ENDLESS, "progress")
        solve = await _stopped_past_its_limit(pool, "solve", {"record": rec}, "started")
        return advice, solve
    (ev, took, job), (ev2, took2, job2) = _with_pool(work)
    # the advice had finished a batch (its progress): what it finished, marked partial
    assert job.timed_out and took >= job.time_limit, (took, job.time_limit)
    assert ev[0] == "result", ev
    assert ev[1]["stop"] == "interrupted" and ev[1]["partial"] is True
    # the solve had nothing finished: the time-limit error
    assert job2.timed_out and took2 >= job2.time_limit, (took2, job2.time_limit)
    assert ev2[:2] == ("error", 5) and ev2[2].startswith("time: past the limit"), ev2


def test_a_cold_compile_is_not_counted_by_the_watchdog(monkeypatch, tmp_path):
    """test_words_take_the_apis_own_answers failed once under heavy load after 121 s with
    KeyError 'objective': the watchdog stopped its advice at its 30 s + 90 s of wall time
    while the worker compiled the engine (a cold cache), which the advice's own --time
    leaves out: the answer was the error "time: past the limit" (504). The worker now
    says when it compiles and the watchdog leaves that out too. Here a deal compiles its
    kernels (about 2 s) on an empty numba cache against a limit of 0.5 s + 0.5 s."""
    from catchten_sim.serve import pool as pool_mod
    monkeypatch.setattr(pool_mod, "GRACE_S", 0.5)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))     # the worker's: cold

    async def work(pool):
        first = pool.submit("deal", {"seed": -1}, 60.0)      # its imports, not timed
        assert (await asyncio.wait_for(first.result(), 120))[0] == "error"
        job = pool.submit("deal", {"seed": 1}, 0.5)
        ev = await asyncio.wait_for(job.result(), 300)
        return ev, job
    ev, job = _with_pool(work)
    assert ev[0] == "result", ev
    assert ev[1]["hands"] and not job.timed_out
    assert job.compile_s > 1.0 and job.compiling_since is None, job.compile_s


def test_a_solve_at_its_time_limit_answers_with_bounds(client):
    """Issue 26 on the page: a solve that cannot finish within its time (``options.time``,
    at most the server's limit, its default) answers with the bounds proven so far, as
    ``catchten solve --time`` does, not with an error: ``exact`` false, ``stopped_by``
    "time limit", a range for the value and for each card. A time that is not a number
    of seconds within the server's limit is refused naming ``time``."""
    import time
    t0 = time.monotonic()
    r = client.post("/api/solve", json={"record": HARD_F52, "options": {"time": 1}})
    took = time.monotonic() - t0
    assert r.status_code == 200, r.text
    sol = r.json()
    assert sol["exact"] is False and sol["stopped_by"] == "time limit", sol
    lo, hi = sol["value_range"]
    assert -40 <= lo < hi <= 40 and sol["value"] is None
    assert {c["card"] for c in sol["cards"]} and all(
        c["range"][0] <= c["range"][1] for c in sol["cards"])
    assert took < 30, took        # a first solve may load the solver (a cold cache compiles)
    for bad in ("1", -1, 0, 1e9):
        r = client.post("/api/solve", json={"record": HARD_F52, "options": {"time": bad}})
        assert r.status_code == 400, (bad, r.text)
        assert r.json()["field"] == "time" and "\n" not in r.json()["error"]


def _raw(client, route: str, text: str):
    return client.post(route, content=text.encode(),
                       headers={"content-type": "application/json"})


@pytest.mark.parametrize("route, text, field", [
    ("/api/advise", '{"position": {}, "position": {}}', "position"),
    ("/api/advise", '{"position": {}, "options": {"samples": 10, "samples": 20}}',
     "samples"),
    ("/api/rules", '{"rules": "foster", "variants": {"target": 31, "target": 11}}',
     "target"),
    ("/api/solve", '{"record": {"dealer": 3, "dealer": 2}}', "dealer"),
])
def test_duplicate_keys_are_refused_naming_the_key(client, route, text, field):
    """JSON allows a key twice in one object and Python keeps the last: a request that
    says two things must be refused, not read as one of them."""
    r = _raw(client, route, text)
    assert r.status_code == 400, r.text
    err = r.json()
    assert err["field"] == field and err["why"] == "duplicate key"
    assert err["error"].startswith(f"error: {field}: duplicate key")
    assert f"'{field}'" in err["error"] and "\n" not in err["error"]


@pytest.mark.parametrize("number", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("route, template, field", [
    ("/api/advise", '{"position": {}, "options": {"time": %s}}', "time"),
    ("/api/advise", '{"position": {}, "options": {"margin": [%s]}}', "margin"),
    ("/api/simulate", '{"options": {"deals": %s}}', "deals"),
    ("/api/rules", '%s', "body"),
])
def test_non_finite_numbers_are_refused_naming_the_field(client, route, template, field,
                                                         number):
    """1e999 parses as inf in Python (and NaN/Infinity are accepted by its parser): no
    such number is JSON's, and none may reach the work."""
    r = _raw(client, route, template % number)
    assert r.status_code == 400, r.text
    err = r.json()
    assert err["field"] == field and err["why"] == "not a finite number", err
    assert err["error"].startswith(f"error: {field}: not a finite number ({number}")


def test_unknown_keys_are_refused_at_every_level(client):
    pos = json.loads(EXAMPLE.read_text())
    for body, field in [({"position": {**pos, "hnad": pos["hand"]}}, "hnad"),
                        ({"position": pos, "options": {"sampels": 10}}, "sampels"),
                        ({"position": pos, "opts": {}}, "opts"),
                        ({"rules": "foster", "players": 4, "variant": {}}, "variant")]:
        route = "/api/rules" if "rules" in body else "/api/advise"
        r = client.post(route, json=body)
        assert r.status_code == 400, (body, r.text)
        assert r.json()["field"] == field and r.json()["why"] == "unknown field", r.text


def test_cli_reads_input_files_as_strictly(tmp_path):
    """The one JSON reader of the CLI and the page: a position file with a key twice or a
    non-finite number is refused by the CLI the same way (exit 2, one line)."""
    text = EXAMPLE.read_text()
    dup = tmp_path / "dup.json"
    dup.write_text(text.replace('{', '{"dealer": 0, ', 1))
    res = _cli("advise", str(dup), "--samples", "100")
    assert res.exit_code == 2 and res.stderr.startswith("error: dealer: duplicate key")
    inf = tmp_path / "inf.json"
    inf.write_text(text.replace('{', '{"score": [1e999, 0], ', 1))
    res = _cli("advise", str(inf), "--samples", "100")
    assert res.exit_code == 2, res.stderr
    assert res.stderr.startswith("error: score: not a finite number (1e999")


def test_the_fusion_aware_values_reach_the_page(client):
    """On a small ending the dd answer carries the fusion-aware values (issue 25 item 4:
    one card per information set, the others double-dummy) and /api/words says them in
    plain words; elsewhere (a rollout run, or dd outside the scope) no such line."""
    from catchten_sim import Rules
    from catchten_sim.endings import ending
    from catchten_sim.cards import cards_of_mask
    from catchten_sim.position import Position
    r = Rules("foster", 4)
    d, prefix = ending(r, seed=2, index=71, tricks=3, into=2)
    hand = [c for c in cards_of_mask(d.set_hands[0][0]) if c not in set(prefix)]
    pos = Position(r, d.dealer, 0, tuple(hand), d.turnup, tuple(prefix), tuple(d.dead),
                   None, d.trump if d.turnup is None else None).to_dict()
    dd = client.post("/api/advise", json={"position": pos, "options": {
        "evaluator": "dd", "seed": 1}}).json()
    assert dd["fusion"]["best"] == "JD" and dd["fusion"]["worlds"] == 120
    vals = {c["card"]: c["fusion"] for c in dd["candidates"]}
    w = client.post("/api/words", json={"dd": dd}).json()
    assert w["fusion"].startswith("If you must play the same card in every deal you "
                                  "cannot tell apart")
    assert "the best card is JD" in w["fusion"] and "all 120 consistent deals" in w["fusion"]
    assert f"JD {vals['JD']:+.2f}" in w["fusion"]
    ro = client.post("/api/advise", json={"position": pos, "options": {
        "samples": 64, "seed": 1}}).json()
    assert ro["fusion"] is None
    assert client.post("/api/words", json={"rollout": ro}).json()["fusion"] == ""
    # two cards equally best: the words name both and say they are equal
    tied = dict(dd, candidates=[dict(c, fusion=vals["JD"] if c["card"] == "7S" else c["fusion"])
                                for c in dd["candidates"]])
    wt = client.post("/api/words", json={"dd": tied}).json()["fusion"]
    assert "the best cards are 7S and JD (equal)" in wt and "the best card is" not in wt
    bad = dict(dd, fusion={"best": 7, "worlds": 120})
    r = client.post("/api/words", json={"dd": bad})
    assert r.status_code == 400 and "dd.fusion.best" in r.text


def _next(client, pos: dict) -> dict:
    r = client.post("/api/next", json=pos)
    assert r.status_code == 200, r.text
    return r.json()


def _refused(pos: dict) -> str | None:
    """The field advise refuses ``pos`` with (None: taken)."""
    from catchten_sim.errors import CatchTenError
    from catchten_sim.position import Position
    try:
        Position.from_dict(pos)
    except CatchTenError as exc:
        return exc.field
    return None


def test_own_hand_cannot_be_recorded_as_played(client):
    """Review (the page): with seat 0 on lead and its hand in, a card recorded as played
    (an opponent's lead, as the user meant it) is seat 0's own: every such click makes a
    position advise refuses. /api/next refuses each one with its line, and both advise
    routes answer 400 naming the field (the stream route before any work is queued)."""
    pos = json.loads(EXAMPLE.read_text())
    nx = _next(client, pos)
    assert nx["to_move"] == 0 and nx["hand_size"] == 9 and nx["problem"] is None
    deck = client.post("/api/rules", json={}).json()["rules"]["deck"]["cards"].split()
    assert set(nx["play"]) == set(deck)                    # every card, each said why
    assert nx["play"]["JS"].startswith("play: card both held and played (JS is in the hand")
    assert nx["play"]["6H"].startswith("play: not the player to move (seat 0")
    for card, field in (("JS", "hand"), ("6H", "seat")):
        bad = {**pos, "play": [card]}
        assert _refused(bad) == field
        for route in ("/api/advise", "/api/advise/stream"):
            r = client.post(route, json={"position": bad, "options": {"samples": 100}})
            assert r.status_code == 400 and r.json()["field"] == field, (route, r.text)
            assert r.json()["error"].startswith(f"error: {field}: ")


def test_next_refuses_exactly_the_cards_advise_refuses(client):
    """Each card /api/next refuses as the next card played, or as a card of the hand,
    makes a position advise refuses, and each card it takes makes one advise takes:
    an opponent's card (the viewer's cards and the turn-up are not its), the viewer's own
    card (a revoke its hand now shows), a card added to the hand (one that shows an
    earlier play of the viewer's a revoke)."""
    ex = json.loads(EXAMPLE.read_text())
    deck = client.post("/api/rules", json={}).json()["rules"]["deck"]["cards"].split()
    hand = ["JS", "AS", "9S", "KH", "QH", "7D", "8C", "9C", "TC"]
    # seat 1 plays after seat 0's 6H; then seat 2 (the viewer, 9 cards) is to move
    pos = {**ex, "seat": 2, "hand": hand, "play": ["6H"]}
    nx = _next(client, pos)
    assert nx["to_move"] == 1
    for c in deck:
        if c != "6H":
            assert (c in nx["play"]) == (_refused({**pos, "play": ["6H", c]}) is not None), c
    assert set(nx["play"]) == set(hand) | {"7S"}
    # the viewer's own card: after 6H 7H, JS (a trump) with hearts held is a revoke;
    # after the trick (8H) the viewer leads again with its 8 cards
    short = [c for c in hand if c != "JS"]
    nx = _next(client, {**pos, "hand": short, "play": ["6H", "7H"]})
    assert nx["to_move"] == 2 and nx["hand_size"] == 9
    assert nx["play"]["JS"].startswith("play: revoke") and "9H" not in nx["play"]
    assert _refused({**pos, "hand": short, "play": ["6H", "7H", "JS", "8H"]}) == "play"
    assert _refused({**pos, "hand": short, "play": ["6H", "7H", "9H", "8H"]}) is None
    # a card of the hand: after seat 2 discarded JS on hearts, any heart in its hand
    # shows that discard a revoke
    base = ["AS", "9S", "7D", "8C", "9C", "TC", "6D"]
    play = ["6H", "7H", "JS", "8H"]
    nx = _next(client, {**pos, "hand": base, "play": play})
    assert nx["problem"] is None and nx["hand_size"] == 8
    assert "revoke" in nx["hand"]["AH"] and "turn-up" in nx["hand"]["7S"]
    for c in deck:
        if c not in base:
            taken = _refused({**pos, "hand": base + [c], "play": play}) is None
            assert (c in nx["hand"]) != taken, c


@pytest.mark.parametrize("body, field", [
    ({"players": 4, "dealer": 9, "seat": 0}, "dealer"),
    ({"players": 4, "dealer": 3, "seat": 0, "hand": ["ZZ"]}, "hand"),
    ({"players": 4, "dealer": 3, "seat": 0, "turnup": "7S", "oops": 1}, "oops"),
    ({"players": 4, "dealer": 3, "seat": 0, "trump": "X"}, "trump"),
])
def test_next_checks_its_input(client, body, field):
    r = client.post("/api/next", json=body)
    assert r.status_code == 400 and r.json()["field"] == field, r.text


def test_next_says_a_play_that_cannot_happen(client):
    ex = json.loads(EXAMPLE.read_text())
    # 7S, the turn-up, led by seat 0 (not the dealer): the play itself is refused
    nx = _next(client, {**ex, "hand": ex["hand"][:8], "play": ["7S"]})
    assert nx["problem"].startswith("play: card not in hand") and nx["to_move"] is None


@pytest.mark.parametrize("body, missing", [
    ({"rules": "foster", "players": 4, "dealer": 3, "seat": 0, "hand": [], "play": []},
     "turnup"),
    ({"rules": "jaques", "players": 4, "dealer": 3, "seat": 0, "play": [],
      "variants": {"dealer_declares": True}}, "trump"),
])
def test_next_a_field_not_given_yet_is_no_problem(client, body, missing):
    """The page's first load (nothing clicked yet): the turn-up (or declared trump) not
    given is ``missing``, not a ``problem`` (the page says problems in red)."""
    nx = _next(client, body)
    assert nx["problem"] is None and nx["missing"] == missing and nx["to_move"] is None
    ex = json.loads(EXAMPLE.read_text())
    assert _next(client, ex)["missing"] is None


def test_check_takes_a_position_whole_or_names_the_field(client):
    """/api/check: advise's own checks of a whole position, before the page takes any of
    it (a pasted position)."""
    ex = json.loads(EXAMPLE.read_text())
    assert client.post("/api/check", json={"position": ex}).json() == {"ok": True}
    for bad, field in (({**ex, "hand": ["JS", "XX"] + ex["hand"][2:]}, "hand"),
                       ({**ex, "turnup": None}, "turnup"), ({**ex, "oops": 1}, "oops"),
                       ({**ex, "rules": "nope"}, "rules")):
        r = client.post("/api/check", json={"position": bad})
        assert r.status_code == 400 and r.json()["field"] == field == _refused(bad), r.text
        assert r.json()["error"].startswith(f"error: {field}: ")
    assert client.post("/api/check", json={"x": ex}).json()["field"] == "x"


def test_stream_says_when_a_worker_takes_the_job():
    """"queued" says the job's own state (waiting or taken), then "started" when a worker
    takes it, before any progress: a job behind a busy worker is not "running", and a
    job that runs is not "queued" because another job runs."""
    app = create_app(workers=1, queue=2, threads=1, warm=False,
                     allowed_hosts=("testserver",))
    slow = {**ENDLESS, "options": {**ENDLESS["options"], "time": 2}}
    quick = {"position": ENDLESS["position"], "options": {"samples": 500}}
    with TestClient(app) as c:
        first = threading.Thread(target=lambda: c.post("/api/advise", json=slow))
        first.start()
        while not c.get("/api/status").json()["running"]:
            threading.Event().wait(0.05)
        events = _events(c, quick)
        first.join(60)
        assert c.get("/api/status").json()["max_time"] == 120
    names = [n for n, _ in events]
    assert names[0] == "queued" and events[0][1]["ahead"] == 0
    assert events[0][1]["running"] == 1            # the slow job holds the one worker
    assert events[0][1]["state"] == "waiting"      # so it waits: the page says it
    assert names.count("started") == 1 and names[-1] == "result"
    assert names.index("started") < names.index("progress")
    assert events[names.index("started")][1]["time"] == 30.0


def test_details_in_a_card_players_words(client):
    """Each run's Details (/api/words ``details``): the numbers kept, no field names,
    look counts or flags ("objective diff", "look 1 of 3 planned, z 2.81", "(score)")."""
    from catchten_sim.explain import run_note
    from catchten_sim.serve.words import details_lines
    pos = json.loads(EXAMPLE.read_text())
    runs = {ev: client.post("/api/advise", json={"position": pos, "options": {
        "samples": 3000, **({"evaluator": "dd", "samples": 600} if ev == "dd" else {})}}
        ).json() for ev in ("rollout", "dd")}
    words = client.post("/api/words", json=runs).json()["details"]
    jargon = ("objective", "look ", "planned, z", "(score)", "consistent", "--", "dd ",
              "P(win)", "bounds", "paranoid", "enumeration")
    for ev, a in runs.items():
        text = "; ".join(words[ev])
        assert not [w for w in jargon if w in text], (ev, text)
        assert f"{a['samples']:,} deals of the {a['n_consistent_deals']:,}" in text
        assert f"\u00b1 {a['intervals']['z']:.2f} standard errors" in text
        assert f"values: {a['measure']}" in text
        look = re.search(r"look (\d+) of (\d+) planned", a["intervals"]["description"])
        assert f"checked {look[1]} of its {look[2]} planned times" in text
    # every part of a note, as advise writes them, said in words
    note = run_note("", "P(win) needs the game score (score)", (5, 100), 2, 9, True, "dd")
    text = "; ".join(details_lines({**runs["dd"], "note": note}))
    assert not [w for w in jargon if w in text], text
    assert "2 of the 9 deals were not solved" in text and "only 5 of the 100" in text
    assert "too few deals to choose a card yet (9): give it more time" in text
