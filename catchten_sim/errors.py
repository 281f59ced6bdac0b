"""Errors raised by catchten_sim.

Every error a user can cause is a :class:`CatchTenError`. Errors about records and
positions carry the docs/formats.md ``field`` and ``why`` so that the CLI can print one line
(``error: FIELD: WHY (detail)``) or a JSON object, and exit with status 2.
"""
from __future__ import annotations

import difflib
import json
import numbers
import re
from collections.abc import Iterable, Mapping

#: the width every one-line error fits (``error: FIELD: WHY (detail)``, piped output)
LINE_WIDTH = 80
#: what the command line (and the page) puts before :meth:`CatchTenError.line`
LINE_PREFIX = "error: "
#: what a user wrote, echoed in a detail: a quoted text (not an apostrophe: ``dealer's``)
#: or a file path (``/…``, ``./…``, ``~/…``); the parts of a line :func:`fit_line` may
#: shorten
_ECHOED = re.compile(r'"(?:[^"\\]|\\.)*"|(?<!\w)\'[^\']*\'(?!\w)'
                     r'|(?<![\w.])(?:~|\.{1,2})?/[^\s:;,()]+')
#: an echoed text is never shortened below this many characters (its ends stay readable)
MIN_ECHO = 10
#: an echoed text this long or shorter (a value of 20 characters and its quotes) is never
#: shortened: cut, a short list such as ``"heuristic,random"`` reads as a valid name
KEEP_ECHO = 22


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
    short : str
        A shorter detail the one line says when ``detail`` does not fit it (a pointer to
        where a list of known names is, instead of the list); the JSON object keeps
        ``detail``.
    """

    #: the CLI's exit status: 2, bad input; a subclass for a failure on good input says 1
    exit_status = 2

    def __init__(self, field: str, why: str, detail: str = "", *, short: str = "") -> None:
        self.field = field
        self.why = why
        self.detail = detail
        self.short = short
        super().__init__(self.line())

    def line(self) -> str:
        """One-line message: ``FIELD: WHY (detail)``, within :data:`LINE_WIDTH` columns
        after :data:`LINE_PREFIX` where shortening what the user wrote can make it so
        (:func:`fit_line`), the field's word said once (:func:`said_why`). The JSON
        object (:meth:`to_dict`) keeps the ``why`` and the whole detail; the ``short``
        detail is said instead where the whole one does not fit."""
        width = LINE_WIDTH - len(LINE_PREFIX)
        # the hint gives way before the value: the whole detail, the short one (a
        # pointer), the value alone; only then is a long value cut (fit_line)
        details = [d for d in (self.detail, self.short) if d]
        head = (self.short or self.detail).split("; ", 1)[0]
        if _ECHOED.fullmatch(head) and head not in details:
            details.append(head)
        texts = [self._text(d) for d in details] or [self._text("")]
        fits = [t for t in texts if len(t) <= width]
        if fits:
            return fits[0]
        cut = [fit_line(t, width) for t in texts]
        return next((c for c in cut if len(c) <= width), cut[-1])

    def _text(self, detail: str) -> str:
        return f"{self.field}: {said_why(self.field, self.why)}" + (
            f" ({detail})" if detail else "")

    def to_dict(self) -> dict:
        """The docs/formats.md error object ``{"kind": "error", "field", "why", "detail"}``."""
        return {"kind": "error", "field": self.field, "why": self.why, "detail": self.detail}


class ArgumentError(CatchTenError, TypeError):
    """A Python caller's argument that is not of its kind (``None`` or a string where a
    :class:`~catchten_sim.rules.Rules` belongs): a :class:`CatchTenError` (one line,
    exit 2) that is also a ``TypeError``; made by :func:`not_a`."""


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


def described(value: object) -> str:
    """A bad input value in plain words, the same for Python, JSON file and page users (no
    Python spelling such as ``True``, ``None``, ``'5'`` or ``<class ...>``).

    >>> [described(v) for v in (True, None, "5", 2.5, [1])]
    ['the boolean true', 'no value', 'the text "5"', '2.5', 'a list']
    """
    if value is None:
        return "no value"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, str):
        text = json.dumps(value if len(value) <= 24 else value[:21] + "...", ensure_ascii=False)
        return f"the text {text}"
    if isinstance(value, numbers.Integral):      # numpy's integers too
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple, set, frozenset)):
        return "a list"
    return f"a value of type {type(value).__name__}"


def echoed(value: object) -> str:
    """A name the user wrote, as an error's detail shows it: a text in double quotes
    (JSON's, never Python's ``'...'``), anything else in plain words (:func:`described`).

    >>> echoed("bogus"), echoed(None)
    ('"bogus"', 'no value')
    """
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else described(value)


def not_a(field: str, what: str, value: object, hint: str) -> ArgumentError:
    """The error for argument ``field`` that is not ``what``: ``FIELD: not WHAT (got
    VALUE; HINT)``, the value in plain words (:func:`described`: never ``None`` or
    ``NoneType``), e.g. ``rules: not a Rules object (got no value; e.g. Rules('foster',
    4))``. The one form of a wrong-kind first argument of the public functions."""
    return ArgumentError(field, f"not {what}", f"got {described(value)}; {hint}")


def said_why(field: str, why: str) -> str:
    """``why`` as the one-line message says it after ``FIELD:``: without the field's own
    word where it would be said twice (``players: out of range``, not ``players: players
    out of range``; ``variant: bad value``, not ``variant: bad variant value``). The word
    goes when it opens the why or names the value (``bad X value``); the why itself (the
    docs/formats.md reason, JSON ``why``) is unchanged.

    >>> said_why("players", "players out of range"), said_why("variant", "bad variant value")
    ('out of range', 'bad value')
    >>> said_why("position", "not a position"), said_why("seat-policy", "unknown policy")
    ('not a position', 'unknown')
    """
    name = field.strip().lower()
    if "-" in name and why == f"unknown {name.rsplit('-', 1)[1]}":
        return "unknown"                   # seat-policy: unknown, not unknown policy
    names = {name, name.rstrip("s"), name + "s"}
    words = why.split()
    for i, w in enumerate(words):
        if w.lower() in names and len(words) > 1 and (
                i == 0 or (i + 1 < len(words) and words[i + 1] == "value")):
            return " ".join(words[:i] + words[i + 1:])
    return why


def shortened(text: str, size: int) -> str:
    """Echoed ``text`` cut to ``size`` characters in the middle (``...``): a quoted text
    keeps its quotes and both ends, a path more of its end (the file's name)."""
    if text[:1] in "\"'":
        inner = size - 5
        head = (inner + 1) // 2
        return f"{text[:1 + head]}...{text[len(text) - 1 - (inner - head):]}"
    tail = (2 * (size - 3)) // 3
    return f"{text[:size - 3 - tail]}...{text[len(text) - tail:]}"


#: a command the message tells the user to run: its file names are never shortened
_COMMAND = re.compile(r"catchten [\w-]+ (?:--?[\w-]+ )*$")


def fit_line(text: str, width: int = LINE_WIDTH - len(LINE_PREFIX)) -> str:
    """``text`` within ``width`` columns where shortening what the user wrote does it: the
    longest echoed text (a quoted value or a file path, :data:`_ECHOED`; not a file name
    in a command to run) is cut in the middle first, none below :data:`MIN_ECHO`
    characters and none of :data:`KEEP_ECHO` characters or fewer. The words of the
    message are never cut, and a line that cannot be brought within ``width`` so is left
    whole: it is the message's to shorten (a test sweeps them).

    >>> fit_line('a: unknown policy ("nobodyatallhereeeeandthere"; known: random)', 50)
    'a: unknown policy ("nobod...there"; known: random)'
    """
    out = text
    while len(out) > width:
        spans = [m.span() for m in _ECHOED.finditer(out) if m.end() - m.start() > KEEP_ECHO
                 and not _COMMAND.search(out, 0, m.start())]
        if not spans:
            return text
        a, b = max(spans, key=lambda ab: ab[1] - ab[0])
        size = max(MIN_ECHO, (b - a) - (len(out) - width))
        out = out[:a] + shortened(out[a:b], size) + out[b:]
    return out


#: how alike (difflib's ratio, 0 to 1) a word must be to a known name to be offered as its
#: correction: typos are (``dealr``, ``trumsp``, ``playrs``: 0.9; ``seet``: 0.75), unrelated
#: words are not (``color`` against ``score``: 0.6, difflib's default cutoff)
SUGGEST_CUTOFF = 0.75

#: known names longer than this (characters, joined) are not listed in a detail: the
#: detail points to where they are listed instead (an error stays within 80 columns)
LIST_WIDTH = 44
#: where the keys of the input files (records, positions) are listed
FORMATS_POINTER = "see docs/formats.md"


def close_match(word: object, names: Iterable[str]) -> str | None:
    """The known name ``word`` is most likely a typo of (case aside), or None when no name is
    close enough (:data:`SUGGEST_CUTOFF`). The one place suggestions are made.

    >>> close_match("dealr", ["dead", "dealer", "score"]), close_match("color", ["score"])
    ('dealer', None)
    """
    lowered: dict[str, str] = {}
    for n in names:
        lowered.setdefault(str(n).lower(), str(n))
    close = difflib.get_close_matches(str(word).strip().lower(), list(lowered), n=1,
                                      cutoff=SUGGEST_CUTOFF)
    return lowered[close[0]] if close else None


def choices_hint(word: object, names: Iterable[str], pointer: str | None = None) -> str:
    """What to tell someone who wrote ``word`` where one of ``names`` belongs: ``did you
    mean 'NAME'?`` (:func:`close_match`), else ``known: A, B, C`` when that is short
    (:data:`LIST_WIDTH`) or no ``pointer`` is given, else ``pointer`` (e.g. ``see: catchten
    rules --switches``)."""
    names = [str(n) for n in names]
    near = close_match(word, names)
    if near is not None:
        return f"did you mean '{near}'?"
    listed = ", ".join(names)
    return f"known: {listed}" if pointer is None or len(listed) <= LIST_WIDTH else pointer


def unknown_name(field: str, what: str, value: object, names: Iterable[str],
                 pointer: str | None = None, cls: type[CatchTenError] | None = None
                 ) -> CatchTenError:
    """The error for a ``value`` that is none of the known ``names`` (a policy, an
    evaluator, a format): ``FIELD: unknown WHAT (VALUE; HINT)``, the value as written
    (:func:`echoed`), the hint :func:`choices_hint`'s. With a ``pointer``, the one line
    says it instead of the known names where they do not fit the line (a long field or
    value); the JSON detail keeps the names. The one form of an unknown name.

    >>> unknown_name("policy", "policy", "rnd", ["random", "heuristic"]).line()
    'policy: unknown policy ("rnd"; known: random, heuristic)'
    """
    names = [str(n) for n in names]
    shown = echoed(value)
    hint = choices_hint(value, names)
    short = f"{shown}; {pointer}" if pointer and hint.startswith("known: ") else ""
    return (cls or CatchTenError)(field, f"unknown {what}", f"{shown}; {hint}", short=short)


def unknown_key_error(key: object, known: Iterable[str], where: str = "",
                      cls: type[CatchTenError] | None = None,
                      pointer: str | None = None) -> CatchTenError:
    """The error for one unknown key: field ``key``, why ``unknown field``, and in the detail
    :func:`choices_hint` (the nearest known key, or the known keys, or ``pointer``), e.g.
    ``variant: unknown field (did you mean 'variants'?)``. ``where`` (e.g. ``hands[2]``)
    prefixes the detail."""
    hint = choices_hint(key, sorted(str(k) for k in known), pointer)
    detail = f"{where}: {hint}" if where else hint
    return (cls or ParseError)(str(key), "unknown field", detail)


def check_keys(data: Mapping[str, object], known: Iterable[str], where: str = "",
               cls: type[CatchTenError] | None = None, pointer: str | None = None) -> None:
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
    pointer : where the known keys are listed, said instead of a long list of them

    Raises
    ------
    CatchTenError
        Field: the unknown key; why: ``unknown field``.
    """
    allowed = set(known)
    for key in data:
        if key not in allowed:
            raise unknown_key_error(key, allowed, where, cls, pointer)
