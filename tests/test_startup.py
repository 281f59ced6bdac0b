"""Start-up: what a command imports before it computes (issue 10's whole-process target)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import sys
from catchten_sim import Rules
from catchten_sim.play import deal
deal(Rules("foster", 4), seed=1, index=0)          # loads (or compiles) a kernel
import numba.np.arraymath as am
print("linalg_after_kernel", "scipy.linalg" in sys.modules)
print("blas_probe", am._HAVE_BLAS)
print("finder_left", any(type(f).__name__ == "_SkipBlasProbe" for f in sys.meta_path))
from scipy.stats import t                         # scipy itself still imports
print("t975", round(float(t.ppf(0.975, 10)), 4))
import numba, numpy as np
@numba.njit
def dot(a, b):
    return np.dot(a, b)
print("dot", dot(np.ones(3), np.arange(3.0)))     # numba's own BLAS check runs at compile
"""


def _run(code: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, timeout=600).stdout
    return dict(line.split(" ", 1) for line in out.splitlines() if " " in line)


def test_kernel_load_skips_scipy_linalg_and_leaves_scipy_working():
    r = _run(PROBE)
    # numba's BLAS probe did not import scipy.linalg, and the finder is gone after it ran
    assert r["linalg_after_kernel"] == "False"
    assert r["blas_probe"] == "False"
    assert r["finder_left"] == "False"
    assert r["t975"] == "2.2281"
    assert r["dot"] == "3.0"


def test_scipy_linalg_imported_first_keeps_numbas_probe():
    # someone else imported scipy.linalg before us: the probe is left alone
    r = _run("import scipy.linalg\n" + PROBE)
    assert r["linalg_after_kernel"] == "True"
    assert r["blas_probe"] == "True"


def test_import_leaves_the_cyclic_collector_as_it_was():
    # the package switches the collector off during its own import only
    for before in ("enable", "disable"):
        r = _run(f"import gc\ngc.{before}()\nimport catchten_sim\n"
                 "print('on', gc.isenabled())\nprint('frozen', gc.get_freeze_count())")
        assert r["on"] == str(before == "enable")
        assert r["frozen"] == "0"                  # freezing is the CLI's, not the API's
