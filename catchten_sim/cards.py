"""Cards, suits, ranks and hands, with the notation of docs/formats.md ("Cards").

A card index is ``suit * 13 + rank`` with suits ``S H D C`` = 0 1 2 3 and rank
0 = ``2`` … 12 = ``A`` (DESIGN.md §3), so one ``uint64`` mask holds any hand of the 36-,
35-, 32- or 52-card decks. Input is case-insensitive, accepts ``10`` for ``T`` and the
suit symbols ``♠ ♥ ♦ ♣``; output is canonical (``TD``, ``JS``, ``6C``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from enum import IntEnum
from typing import Union
from collections.abc import Iterable, Sequence

from .errors import CatchTenError, ParseError


class Suit(IntEnum):
    """The four suits; values are the kernel codes."""

    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def long_name(self) -> str:
        return ("spades", "hearts", "diamonds", "clubs")[self]


class Rank(IntEnum):
    """Ranks 2 … A; values are the kernel codes (0 = 2 … 12 = A)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return RANK_CHARS[self]


RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHDC"
_SUIT_INPUT = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
               "♤": 0, "♡": 1, "♢": 2, "♧": 3}
_RANK_INPUT = {c: i for i, c in enumerate(RANK_CHARS)}
_RANK_INPUT["10"] = Rank.TEN

N_CARD_CODES = 52


def card_index(suit: int, rank: int) -> int:
    """Card index ``suit * 13 + rank`` (int)."""
    return int(suit) * 13 + int(rank)


def suit_of(idx: int) -> int:
    """Suit code (0 S, 1 H, 2 D, 3 C) of card index ``idx``."""
    return idx // 13


def rank_of(idx: int) -> int:
    """Rank code (0 = 2 … 12 = A) of card index ``idx``."""
    return idx % 13


def parse_card(text: object, field: str = "card") -> int:
    """Parse one card and return its index.

    Parameters
    ----------
    text : str
        Rank then suit: ``AS``, ``10d``, ``T♦``; case-insensitive, surrounding spaces ignored.
    field : str
        Name of the input field, used in the error message.

    Returns
    -------
    int
        The card index (0 … 51).

    Raises
    ------
    ParseError
        ``malformed card`` when the text is not a card.
    """
    if isinstance(text, Card):
        return text.idx
    if not isinstance(text, str):
        raise ParseError(field, "malformed card", f"{field}={_shown(text)}")
    s = text.strip().upper()
    if len(s) < 2:
        raise ParseError(field, "malformed card", f"{field}={_shown(text)}")
    rank_s, suit_s = s[:-1], s[-1]
    if rank_s not in _RANK_INPUT or suit_s not in _SUIT_INPUT:
        raise ParseError(field, "malformed card", f"{field}={_shown(text)}")
    return card_index(_SUIT_INPUT[suit_s], _RANK_INPUT[rank_s])


def _shown(value: object) -> str:
    """A bad input value for an error message, as JSON would write it (never ``None``)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def format_card(idx: int | Card) -> str:
    """Canonical text of card index ``idx`` (or a :class:`Card`): ``TD``, ``JS``, ``6C``."""
    idx = int(idx)
    return RANK_CHARS[idx % 13] + SUIT_CHARS[idx // 13]


CardLike = Union[str, "Card", int]


def parse_cards(cards: object, field: str = "cards") -> list[int]:
    """Parse a hand: a space/comma separated string or an iterable of card-likes.

    Returns the card indices in the order given (duplicates are kept: the caller checks).

    Raises
    ------
    ParseError
        ``malformed card`` naming ``field[i]`` and the text.
    """
    if cards is None:
        return []
    if isinstance(cards, str):
        items: list[object] = [t for t in cards.replace(",", " ").split() if t]
    else:
        try:
            items = list(cards)  # type: ignore[call-overload]
        except TypeError:
            raise ParseError(field, "malformed card",
                             f"{field}={_shown(cards)} is not a list of cards") from None
    out = []
    for i, it in enumerate(items):
        if isinstance(it, int) and not isinstance(it, bool):
            if not 0 <= it < N_CARD_CODES:
                raise ParseError(field, "malformed card", f"{field}[{i}]={_shown(it)}")
            out.append(int(it))
        else:
            sub = f"{field}[{i}]"
            try:
                out.append(parse_card(it, sub))
            except ParseError:
                raise ParseError(field, "malformed card", f"{sub}={_shown(it)}") from None
    return out


def mask_of(indices: Iterable[int]) -> int:
    """Bitmask (Python int, fits uint64) of card indices."""
    m = 0
    for i in indices:
        m |= 1 << int(i)
    return m


def cards_of_mask(mask: int) -> list[int]:
    """Card indices set in ``mask``, ascending."""
    out = []
    m = int(mask)
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. ``Card("TD")``, ``Card.of(Suit.D, Rank.TEN)``; ``str(card) == "TD"``."""

    idx: int

    def __init__(self, card: object) -> None:
        if isinstance(card, int) and not isinstance(card, bool):
            if not 0 <= card < N_CARD_CODES:
                raise ParseError("card", "malformed card", f"card={card!r}")
            object.__setattr__(self, "idx", int(card))
        else:
            object.__setattr__(self, "idx", parse_card(card))

    @classmethod
    def of(cls, suit: int, rank: int) -> Card:
        return cls(card_index(suit, rank))

    @property
    def suit(self) -> Suit:
        return Suit(self.idx // 13)

    @property
    def rank(self) -> Rank:
        return Rank(self.idx % 13)

    def __str__(self) -> str:
        return format_card(self.idx)

    def __repr__(self) -> str:
        return f"Card({format_card(self.idx)!r})"

    def __int__(self) -> int:
        return self.idx

    __index__ = __int__

    def __eq__(self, other: object) -> bool:
        """Equal to the same card given as a Card, its index or its text (``"TD"``)."""
        if isinstance(other, Card):
            return self.idx == other.idx
        if isinstance(other, int) and not isinstance(other, bool):
            return self.idx == other
        if isinstance(other, str):
            try:
                return self.idx == parse_card(other)
            except ParseError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.idx)


@dataclass(frozen=True, slots=True)
class Hand:
    """A set of cards held as a ``uint64``-compatible bitmask (Python int)."""

    mask: int

    @classmethod
    def parse(cls, cards: object, field: str = "hand") -> Hand:
        """Parse card-likes into a hand; duplicates raise ``ParseError`` (``duplicate card``)."""
        idx = parse_cards(cards, field)
        m = 0
        for i, c in enumerate(idx):
            if m >> c & 1:
                raise ParseError(field, "duplicate card", f"{field}[{i}]={format_card(c)}")
            m |= 1 << c
        return cls(m)

    def cards(self) -> list[Card]:
        return [Card(i) for i in cards_of_mask(self.mask)]

    def __len__(self) -> int:
        return int(self.mask).bit_count()

    def __contains__(self, card: object) -> bool:
        return bool(self.mask >> parse_card(card) & 1)

    def __str__(self) -> str:
        return " ".join(format_card(i) for i in cards_of_mask(self.mask))


def only_cards(legal: Sequence[int], cards: object) -> list[int]:
    """The cards of ``cards`` (a string like ``"JS 7D"`` or card-likes), each legal
    (in ``legal``), ascending and without repeats; ``cards`` None: every legal card.

    Raises
    ------
    CatchTenError
        ``hand``: no legal card; ``cards``: a malformed card, none given, or a card that
        is not legal here.
    """
    if not legal:
        raise CatchTenError("hand", "no legal card", "the player to move holds no card")
    if cards is None:
        return list(legal)
    chosen = sorted(set(parse_cards(cards, "cards")))
    if not chosen:
        raise CatchTenError("cards", "no card", "give at least one legal card")
    bad = [c for c in chosen if c not in legal]
    if bad:
        raise CatchTenError("cards", "not a legal card",
                            f"{format_card(bad[0])}; legal here: "
                            + " ".join(format_card(c) for c in legal))
    return chosen
