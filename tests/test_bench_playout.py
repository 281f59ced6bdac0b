"""benchmarks/bench_playout.py's labels and busy-machine warning (review Low 11): the
per-process lines are ratios and say so; a loaded machine is called out before the
targets table."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_playout.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_playout", _PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_ratio_keys_are_labelled_as_ratios(bench) -> None:
    assert bench.ratio_label("random_t1") == "random/C 1 thread"
    assert bench.ratio_label("heuristic_t2") == "heuristic/C 2 threads"
    assert bench.ratio_label("heuristic/random_t1") == "heuristic/random 1 thread"


def test_busy_machine_warning(bench) -> None:
    calm = {"avg": [0.2, 0.2, 0.2], "per_core": 0.1, "cores": 2}
    busy = {"avg": [1.8, 1.5, 1.2], "per_core": 0.9, "cores": 2}
    assert bench.busy_warning(calm, calm) is None
    for start, end in ((busy, calm), (calm, busy)):
        line = bench.busy_warning(start, end)
        assert line is not None and "busy machine" in line and "\n" not in line
    unknown = {"avg": None, "per_core": None, "cores": 2}
    assert bench.busy_warning(unknown, unknown) is None
    now = bench.load_now()
    assert now["cores"] >= 1 and (now["per_core"] is None or now["per_core"] >= 0)
