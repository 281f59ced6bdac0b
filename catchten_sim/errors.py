"""Errors raised by catchten_sim.

Every error a user can cause is a :class:`CatchTenError`. Errors about records and
positions carry the docs/formats.md ``field`` and ``why`` so that the CLI can print one line
(``error: FIELD: WHY (detail)``) or a JSON object, and exit with status 2.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping


class CatchTenError(Exception):
    """Base class of every error a user can cause.

    Parameters
    ----------
    field : str
        The input field at fault (docs/formats.md: ``rules``, ``variants``, ``players``,
        ``dealer``, ``hands``, ``turnup``, ``dead``, ``play``, or an option name).
    why : str
        The problem, one of the docs/formats.md reasons where one applies.
    detail : str
        The offending value, for the reader.
    """

    #: the CLI's exit status: 2, bad input; a subclass for a failure on good input says 1
    exit_status = 2

    def __init__(self, field: str, why: str, detail: str = "") -> None:
        self.field = field
        self.why = why
        self.detail = detail
        super().__init__(self.line())

    def line(self) -> str:
        """One-line message: ``FIELD: WHY (detail)``."""
        return f"{self.field}: {self.why}" + (f" ({self.detail})" if self.detail else "")

    def to_dict(self) -> dict:
        """The docs/formats.md error object ``{"kind": "error", "field", "why", "detail"}``."""
        return {"kind": "error", "field": self.field, "why": self.why, "detail": self.detail}


class RulesError(CatchTenError):
    """A preset, switch, player count or combination of switches that is not allowed."""


class ParseError(CatchTenError):
    """Text that is not a card, a hand or a record (malformed card, bad JSON, bad TOML)."""


class IllegalPlayError(CatchTenError):
    """A play that the rules do not allow (card not in hand, played twice, ...)."""


class RevokeError(IllegalPlayError):
    """A card that did not follow suit while the player held the led suit."""


class PositionError(CatchTenError):
    """A position (decision point) that is inconsistent with its own history."""


class DealNotGeneratedError(CatchTenError):
    """No deal consistent with the information set could be drawn."""


def unknown_key_error(key: object, known: Iterable[str], where: str = "",
                      cls: type[CatchTenError] | None = None) -> CatchTenError:
    """The error for one unknown key: field ``key``, why ``unknown field``, and the nearest
    known key (difflib) or the known keys in the detail, e.g. ``variant: unknown field (did
    you mean 'variants'?)``. ``where`` (e.g. ``hands[2]``) prefixes the detail."""
    names = sorted(str(k) for k in known)
    close = difflib.get_close_matches(str(key), names, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(names)}"
    detail = f"{where}: {hint}" if where else hint
    return (cls or ParseError)(str(key), "unknown field", detail)


def check_keys(data: Mapping[str, object], known: Iterable[str], where: str = "",
               cls: type[CatchTenError] | None = None) -> None:
    """Refuse the first unknown key of ``data`` (in the order given) with
    :func:`unknown_key_error`: a typo is an error, never a silent change of answer.

    The one place that checks keys: hand and game records, positions, JSON inputs, and the
    TOML rules file.

    Parameters
    ----------
    data : mapping, the object read (JSON object, TOML table)
    known : the keys allowed there
    where : str, where ``data`` sits in a larger input (``hands[2]``), for the detail
    cls : the error class (default :class:`ParseError`)

    Raises
    ------
    CatchTenError
        Field: the unknown key; why: ``unknown field``.
    """
    allowed = set(known)
    for key in data:
        if key not in allowed:
            raise unknown_key_error(key, allowed, where, cls)
