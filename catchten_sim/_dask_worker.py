"""Dask worker preload of a local cluster (``--workers``): the worker process ignores
Ctrl-C (SIGINT).

A terminal's Ctrl-C goes to the whole process group, the ``LocalCluster``'s worker
processes included; each would die printing a KeyboardInterrupt traceback. The run's own
process handles the Ctrl-C (keeps the finished chunks, says how to resume) and shuts the
cluster down, so the workers have nothing to do with it.
"""
from __future__ import annotations

import signal
import threading

if threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_setup(worker) -> None:  # noqa: ANN001 - the preload hook distributed calls
    """Nothing more to set up (the signal is ignored at import, in the main thread)."""
