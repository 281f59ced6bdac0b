"""A Ctrl-C (the page's cancel is a SIGINT) that lands while a batch is being added to the
sums is held until the batch is in every sum: a cancel once landed half-way and left a
count past its deals ("internal error: ValueError: math domain error" in a proportion's
interval, tests/test_serve_stop.py under load)."""
from __future__ import annotations

import os
import signal
from pathlib import Path

from catchten_sim import advise
from catchten_sim.aggregate import CandidateSums
from catchten_sim.run import engine

LEAD = Path(__file__).resolve().parents[1] / "examples" / "position-lead.json"


class _Trap(dict):
    """A batch's measures that send this process a SIGINT when the sums read their
    fifth measure (some sums of the batch added, the count not yet)."""

    def __init__(self, meas: dict) -> None:
        super().__init__(meas)
        self.reads = 0

    def __getitem__(self, key):
        self.reads += 1
        if self.reads == 5:
            os.kill(os.getpid(), signal.SIGINT)
        return super().__getitem__(key)


def test_a_ctrl_c_inside_the_sums_keeps_the_batch_whole(monkeypatch):
    add = CandidateSums.add
    calls = []

    def trapped(self, meas, *w):
        calls.append(1)
        return add(self, _Trap(meas) if len(calls) == 2 else meas, *w)

    monkeypatch.setattr(CandidateSums, "add", trapped)
    engine.INTERRUPTS[0] = 0
    a = advise(str(LEAD), seed=3, threads=1, samples=10 ** 6, stop_early=False)
    engine.INTERRUPTS[0] = 0
    assert len(calls) == 2 and a.stop == "interrupted"
    # the batches: 256, then the trapped one of 256, counted whole (not the first only)
    assert a.n_samples == 512, a.n_samples
    for c in a.to_dict()["candidates"]:
        for k in ("ten_ours", "caught_by_us", "caught_by_them"):
            lo, hi = c[k]["ci95"]
            assert 0.0 <= lo <= c[k]["mean"] <= hi <= 1.0, (c["card"], k, c[k])
