"""Output locations: create at most the last missing directory level, never a whole tree
(a typo in a path should be an error, not a new directory tree)."""
from __future__ import annotations

from pathlib import Path

from .errors import CatchTenError

__all__ = ["ensure_dir", "is_empty_dir"]


def ensure_dir(path: str | Path, field: str = "out") -> Path:
    """Make sure ``path`` is a directory, creating it only if its parent exists.

    Raises
    ------
    CatchTenError
        ``FIELD: cannot write`` when ``path`` is a file, its parent is missing, or the
        directory cannot be created.
    """
    p = Path(path)
    if p.is_dir():
        return p
    if p.exists():
        raise CatchTenError(field, "cannot write", f"{p}: exists and is not a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise CatchTenError(field, "cannot write",
                            f"{p}: the directory {parent} does not exist (only the last "
                            "level of a path is created; create the rest first)")
    try:
        p.mkdir()
    except OSError as exc:
        raise CatchTenError(field, "cannot write",
                            f"{p}: {exc.strerror or type(exc).__name__}") from None
    return p


def is_empty_dir(path: str | Path) -> bool:
    """True if ``path`` is missing or an empty directory."""
    p = Path(path)
    return not p.exists() or (p.is_dir() and not any(p.iterdir()))
