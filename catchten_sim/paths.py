"""Output locations: a directory the user names (``report --out DIR``, ``--run-dir DIR``)
is created when only its last level is missing; a file's directory (``simulate --out
DIR/x.csv``) is never created: the user named the file, not the directory. A typo in a
path is an error, not a new directory tree."""
from __future__ import annotations

from pathlib import Path

from .errors import CatchTenError

__all__ = ["ensure_dir", "ensure_parent", "is_empty_dir"]


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


def ensure_parent(path: str | Path, field: str = "out") -> Path:
    """Make sure the directory a file ``path`` goes into exists; never create it (the
    same rule for every command that writes a named file).

    Raises
    ------
    CatchTenError
        ``FIELD: cannot write`` when the directory is missing or is not a directory.
    """
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        what = "is not a directory" if parent.exists() else "does not exist"
        raise CatchTenError(field, "cannot write",
                            f"{p}: the directory {parent} {what} (create it first, or "
                            "name a file in an existing directory)")
    return p


def is_empty_dir(path: str | Path) -> bool:
    """True if ``path`` is missing or an empty directory."""
    p = Path(path)
    return not p.exists() or (p.is_dir() and not any(p.iterdir()))
