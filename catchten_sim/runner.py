"""The old name of the run engine, :mod:`catchten_sim.run` (plan, engine, dirs): kept for
the modules and scripts that still write ``from catchten_sim import runner``; new code
imports :mod:`catchten_sim.run`."""
from __future__ import annotations

from typing import Any

from .run import dirs as _dirs

from .run import *  # noqa: F403 - every public name of the run package


def __getattr__(name: str) -> Any:
    """``LAST_RUN_DIR``, read where it changes (:mod:`catchten_sim.run.dirs`)."""
    if name == "LAST_RUN_DIR":
        return _dirs.LAST_RUN_DIR
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
