"""numba kernels: arrays and ints in, arrays and ints out (DESIGN.md §3).

Stale caches: numba's on-disk cache of a kernel is checked against the file that defines
it only, not the files whose functions it inlines (a kernel of ``engine.py`` inlines
``policy.py``, ``trick.py`` ...): an edit of ``policy.py`` alone would leave the compiled
``run_chunk`` of the old code in use. So every kernel file of this package is given the
modification time of the newest one when the package is imported (one ``stat`` a file):
a change to any kernel file makes numba recompile every kernel. Where the files cannot be
touched (a read-only install) nothing is done; an install writes every file anew anyway.
"""
from __future__ import annotations

import os
from pathlib import Path


def _align_kernel_mtimes() -> None:
    files = sorted(Path(__file__).parent.glob("*.py"))
    try:
        stamps = [f.stat().st_mtime_ns for f in files]
    except OSError:
        return
    newest = max(stamps)
    for f, t in zip(files, stamps):
        if t < newest:
            try:
                os.utime(f, ns=(newest, newest))
            except OSError:
                return


_align_kernel_mtimes()
