"""Reading user files: UTF-8 text and JSON objects, every fault one clear line (docs/formats.md).

Used by hand and game records (:mod:`catchten_sim.records`) and positions
(:mod:`catchten_sim.position`); ``-`` reads standard input.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from .cards import parse_card
from .errors import ParseError, RulesError

__all__ = ["MAX_NESTING", "check_nesting", "json_kind", "preset_name", "read_json_object",
           "read_text"]

#: the deepest nesting of lists and objects an input file may have (a record nests 4
#: deep; anything near this is not a record, position or rules file)
MAX_NESTING = 32


def card_at(text: Any, field: str, where: str) -> int:
    """The card written at ``where`` (e.g. ``hands[1][2]``) of input field ``field``, as a
    record or a position writes it (a card name; docs/formats.md): its index.

    Raises
    ------
    ParseError
        ``malformed card`` naming ``field``, with ``where`` and the value as JSON shows it.
    """
    try:
        return parse_card(text, where)
    except ParseError:
        shown = json.dumps(text, ensure_ascii=False) if text is None or isinstance(
            text, (str, int, float, bool)) else json_kind(text)
        raise ParseError(field, "malformed card", f"{where}={shown}") from None


def json_kind(value: Any) -> str:
    """What a JSON value is, in JSON's words (``null``, ``object``, ``list``, ...), for
    messages that must never say ``None`` or ``NoneType``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__


def read_text(path: str | Path, field: str) -> str:
    """The text of a UTF-8 file (``-``: standard input).

    Raises
    ------
    ParseError
        Field ``field``: ``file not found``, ``unreadable file`` (a directory, no
        permission), ``not UTF-8 text`` (with the offset of the first bad byte).
    """
    if str(path) == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else \
            sys.stdin.read().encode("utf-8")
        where = "standard input"
    else:
        p = Path(path)
        where = str(p)
        try:
            data = p.read_bytes()
        except FileNotFoundError:
            raise ParseError(field, "file not found", where) from None
        except IsADirectoryError:
            raise ParseError(field, "unreadable file", f"{where} is a directory") from None
        except OSError as exc:
            raise ParseError(field, "unreadable file", f"{where}: {exc.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(field, "not UTF-8 text",
                         f"{where}: byte 0x{data[exc.start]:02x} at offset {exc.start}; "
                         "save the file as UTF-8") from None


def read_json_object(path: str | Path, field: str) -> dict[str, Any]:
    """A JSON object from a UTF-8 file (``-``: standard input).

    Raises
    ------
    ParseError
        As :func:`read_text`; ``not JSON`` (line and column); ``not an object`` when the
        top level is not a JSON object.
    """
    text = read_text(path, field)
    where = "standard input" if str(path) == "-" else str(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(field, "not JSON",
                         f"{where}: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        _too_deep(field, where)
    check_nesting(data, field, where)
    if not isinstance(data, dict):
        raise ParseError(field, "not an object",
                         f"{where}: the top level is {json_kind(data)}, not an object")
    return data


def _too_deep(field: str, where: str) -> NoReturn:
    raise ParseError(field, "nested too deeply",
                     f"{where}: lists and objects nested more than {MAX_NESTING} deep; "
                     "docs/formats.md shows the shapes a file may have") from None


def check_nesting(data: Any, field: str, where: str) -> None:
    """Refuse ``data`` (parsed JSON or TOML) nested more than :data:`MAX_NESTING` deep
    (walked without recursion, so no depth can overflow the stack).

    Raises
    ------
    ParseError
        ``nested too deeply``, naming ``field`` and the file.
    """
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            if depth >= MAX_NESTING:
                _too_deep(field, where)
            stack.extend((v, depth + 1) for v in value)


def preset_name(value: Any) -> str:
    """The ``rules`` field of a record or position: a preset name, ``foster`` when null or
    missing.

    Raises
    ------
    RulesError
        ``unknown preset`` when it is not a string.
    """
    if value is None:
        return "foster"
    if not isinstance(value, str):
        raise RulesError("rules", "unknown preset",
                         f"rules is {json_kind(value)}, not a preset name")
    return value
