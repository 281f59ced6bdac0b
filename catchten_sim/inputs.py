"""Reading user files: UTF-8 text and JSON objects, every fault one clear line (docs/formats.md).

Used by hand and game records (:mod:`catchten_sim.records`) and positions
(:mod:`catchten_sim.position`); ``-`` reads standard input.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any, NoReturn

from .cards import parse_card
from .errors import ParseError, RulesError

__all__ = ["MAX_NESTING", "check_nesting", "check_text_nesting", "json_kind", "parse_json",
           "preset_name", "read_json_object", "read_text"]

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
        As :func:`read_text`; ``not JSON`` (line and column, :func:`parse_json`); ``not
        an object`` when the top level is not a JSON object.
    """
    text = read_text(path, field)
    where = "standard input" if str(path) == "-" else str(path)
    data = parse_json(text, field, where)
    if not isinstance(data, dict):
        raise ParseError(field, "not an object",
                         f"{where}: {json_kind(data)}")
    return data


def parse_json(text: str, field: str, where: str) -> Any:
    """JSON text read strictly, the one reader of the CLI's files and the page's requests:
    nesting limited (checked before parsing), a key twice in one object refused (Python
    would keep the last silently), and no number that is not finite (``1e999`` parses as
    inf; ``NaN`` and ``Infinity`` are not JSON).

    Raises
    ------
    ParseError
        ``not JSON`` (``WHERE:LINE:COLUMN: what``, :func:`json_fault`) or ``nested too
        deeply``, naming ``field``;
        ``duplicate key`` naming the key; ``not a finite number`` naming the key whose
        value (or list of values) holds the first such number (``field`` at the top level).
    """
    check_text_nesting(text, field, where)
    bad: list[str] = []

    def number(s: str) -> float:
        x = float(s)
        if not math.isfinite(x):
            bad.append(s)
        return x

    def constant(s: str) -> float:
        bad.append(s)
        return float(s)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for k, v in items:
            if k in obj:
                raise ParseError(k, "duplicate key", f"{k!r} twice in one object of {where}; "
                                 "give each key once")
            obj[k] = v
        return obj

    try:
        data = json.loads(text, object_pairs_hook=pairs, parse_float=number,
                          parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise ParseError(field, "not JSON",
                         f"{where}:{exc.lineno}:{exc.colno}: {json_fault(exc.msg)}") from None
    except RecursionError:
        _too_deep(field, where)
    except ValueError as exc:           # an integer of more digits than Python converts
        raise ParseError(field, "not JSON", f"{where}: {exc}".split(";")[0]) from None
    check_nesting(data, field, where)
    if bad:
        raise ParseError(_non_finite_field(data, field), "not a finite number",
                         f"{bad[0]} in {where}; JSON numbers are finite")
    return data


#: the JSON reader's words for what is wrong, shorter (the line of a bad file fits 80
#: columns with its name): the mistakes of a hand-written file first
_JSON_FAULTS = {
    "Expecting property name enclosed in double quotes": "key not in double quotes",
    "Expecting value": "a value expected",
    "Expecting ',' delimiter": "',' expected",
    "Expecting ':' delimiter": "':' expected",
    "Unterminated string starting at": "string not closed",
    "Invalid control character at": "control character in a string",
    "Invalid \\escape": "bad \\ escape",
    "Invalid \\uXXXX escape": "bad \\u escape",
    "Extra data": "more after the JSON value",
    "Illegal trailing comma before end of object": "trailing comma",
    "Illegal trailing comma before end of array": "trailing comma",
}


def json_fault(msg: str) -> str:
    """What the JSON reader says is wrong (``exc.msg``), in a few words: ``key not in
    double quotes`` for ``Expecting property name enclosed in double quotes``."""
    return _JSON_FAULTS.get(msg, msg[:1].lower() + msg[1:])


def _non_finite_field(data: Any, field: str) -> str:
    """The key whose value holds the first non-finite number of ``data`` in document order
    (``field`` when it is at the top level)."""
    stack: list[tuple[Any, str]] = [(data, field)]
    while stack:
        value, name = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return name
        if isinstance(value, dict):
            stack.extend((v, str(k)) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((v, name) for v in reversed(value))
    return field


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


def check_text_nesting(text: str, field: str, where: str) -> None:
    """Refuse JSON text whose brackets nest more than :data:`MAX_NESTING` deep, before it
    is parsed (so the parser itself cannot recurse too deep). Brackets inside strings do
    not count; a malformed text is left for the parser to name.

    Raises
    ------
    ParseError
        ``nested too deeply``, naming ``field`` and ``where``.
    """
    depth, in_str, esc = 0, False, False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                _too_deep(field, where)
        elif ch in "]}":
            depth -= 1


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
