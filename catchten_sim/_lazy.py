"""Import heavy libraries on first use (``catchten simulate`` starts without pandas).

``from ._lazy import pandas as pd`` gives a module whose real import happens at the first
attribute access (the standard library's :class:`importlib.util.LazyLoader` recipe).
"""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_import(name: str) -> ModuleType:
    """The module ``name``, loaded on first attribute access (at once if already loaded)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}")
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


pandas = lazy_import("pandas")
