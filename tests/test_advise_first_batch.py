"""Double-dummy advice reports its values so far after its first 16 deals, 2 on a deal of
more than 40 cards (french52: seconds a deal), so that the page shows them while the run
goes on (it no longer runs those deals twice, once as a preliminary run of 16 and again
at the start of the full run), and how a run is cut into batches never changes its
answer: the same seed gives the same answer whatever the batches and threads."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import catchten_sim.advise  # noqa: F401  (the module, for its batch size)
from catchten_sim import advise

ROOT = Path(__file__).resolve().parents[1]
LEAD = ROOT / "examples" / "position-lead.json"
#: a french52 deal (52 cards, 13 each) at its opening lead: a solve takes seconds, so
#: the runs here stop each one at a small node budget (its bounds count)
F52 = ROOT / "tests" / "cases" / "score" / "french52_04.json"
#: a late position: every consistent deal is solved (exact), in batches too
LATE = ROOT / "tests" / "cases" / "advise" / "foster4_left3_lead_05.json"
MODULE = sys.modules["catchten_sim.advise"]
TIMING = ("elapsed_s", "compile_s")


def _run(pos, **kw) -> tuple[dict, list[int]]:
    seen: list[int] = []
    d = advise(pos, evaluator="dd", time_limit=None, seed=2,
               running=lambda done, means: seen.append(done), **kw).to_dict()
    return {k: v for k, v in d.items() if k not in TIMING}, seen


def test_dd_values_so_far_come_after_its_first_16_deals():
    """The page's first double-dummy values are the run's own after 16 deals (then 32,
    64, ...: each batch doubles, up to the looks of the stopping rule at 256, 512, ...
    and the last deal)."""
    _, seen = _run(LEAD, samples=130, stop_early=False, threads=2)
    assert seen == [16, 32, 64, 128, 130], seen
    _, seen = _run(LATE, threads=2)              # all 560 consistent deals (exact)
    assert seen == [16, 32, 64, 128, 256, 512, 560], seen


def test_the_batches_never_change_the_answer(monkeypatch):
    """The same seed, the same answer (every digit of the JSON) with a first batch of 16
    (the page's first values), of 256 (as before) or of 1, and on 1 or 2 threads; in
    an exact enumeration too, and with deals stopped at a node budget (half points)."""
    for pos, kw in ((LEAD, {"samples": 24, "stop_early": False}),
                    (LEAD, {"samples": 20, "max_nodes": 3000}),
                    (LATE, {})):
        want, _ = _run(pos, threads=2, **kw)
        for first, threads in ((256, 1), (1, 2)):
            monkeypatch.setattr(MODULE, "DD_FIRST_BATCH", first)
            got, seen = _run(pos, threads=threads, **kw)
            assert seen[0] == min(first, got["samples"]), seen
            assert got == want, (pos.name, kw, first, threads)
        monkeypatch.undo()


def _f52_lead() -> dict:
    rec = json.loads(F52.read_text())
    seat = (rec["dealer"] + 1) % 4
    return {"rules": "french52", "players": 4, "dealer": rec["dealer"], "seat": seat,
            "hand": rec["hands"][seat], "turnup": rec["turnup"], "play": []}


def test_a_52_card_deal_shows_its_first_dd_values_after_2_deals(monkeypatch):
    """On french52 a deal takes seconds to solve: the first values so far come after 2
    deals (16 would come near the end of the page's wait), then 4, 8, ...; the answer
    is the one a first batch of 16 gives, digit for digit."""
    pos = _f52_lead()
    kw = {"samples": 11, "stop_early": False, "max_nodes": 2000, "threads": 2}
    got, seen = _run(pos, **kw)
    assert seen == [2, 4, 8, 11], seen
    assert got["bounded_deals"] > 0          # (the budget stopped solves: fast)
    monkeypatch.setattr(MODULE, "DD_FIRST_BATCH_BIG", 16)
    want, seen = _run(pos, **kw)
    assert seen == [11], seen
    assert got == want
