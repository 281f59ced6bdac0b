"""Errors raised by catchten_sim.

Every error a user can cause is a :class:`CatchTenError`. Errors about records and
positions carry the docs/formats.md ``field`` and ``why`` so that the CLI can print one line
(``error: FIELD: WHY (detail)``) or a JSON object, and exit with status 2.
"""
from __future__ import annotations


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


def json_type(value: object) -> str:
    """The JSON name of a value's type, for messages (``null``, not ``NoneType``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
