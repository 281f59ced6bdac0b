"""The trick: legal cards, the winner, playing a card and taking a trick, once.

Every rule of play is written here once, as ``@njit(inline="always")`` helpers; the
playout loop (:func:`catchten_sim._kernels.engine.play_deal`), rollouts, games and the
double-dummy solver all call them. Cards are indices ``suit * 13 + rank`` (rank 0 = 2 …
12 = A); a hand or a trick is an int64 mask. Trump code 4 (``NO_TRUMPS``) means no trumps;
its suit mask is 0, so every trump rule below is then a no-op without a branch.

Rules (docs/rules.md)
----------------
- follow suit, else any card (§1); ``must_trump``: a trump if unable to follow and able to
  trump (§3);
- ``no_trump_first_lead``: the first lead of every set (every deal without sets) may not
  be a trump when the leader holds another card (§3, §7.6);
- ``exposed_trump``: the dealer's turn-up may not be played before the deal's last two
  tricks; while locked it does not count as holding its suit (§3, §7.3);
- the highest trump wins, else the highest card of the suit led (§1; trump order by preset,
  §2, §4, through ``Tables.top_trump``); the winner leads next; with sets the winner of a
  set's last trick leads to the next set (§2);
- captured cards go to the winner's side, per scoring unit (each set with per-set
  scoring, else the deal; §2, §3, §7.9).

API: pure helpers (scalars in, scalars out)
-------------------------------------------
``suit_mask(s) -> int64``                the 13-bit lane of suit ``s`` (0 for s = 4).
``trump_mask(trump) -> int64``           ``suit_mask(trump)``, 0 with no trumps.
``turnup_lock_bit(play_rules, turnup) -> int64``  the turn-up's bit when ``exposed_trump``
    locks it (0 without, or with no turn-up: ``turnup`` -1; §3, §7.3).
``lock_bit(turnup_bit, t, total) -> int64`` that bit while locked: before the deal's last
    two tricks (§7.3, §7.6).
``legal_cards(play_rules, hand, lock, k, ledmask, first_of_set, tmask) -> int64``
    the legal cards of ``hand`` for the ``k``-th card (0-based) of a trick whose led suit
    has mask ``ledmask`` (ignored for ``k == 0``); ``first_of_set``: the trick is the first
    of its set.
``trump_lead_allowed(play_rules, hand, first_of_set, tmask) -> bool``  a lead of a trump
    is legal (``no_trump_first_lead``; the double-dummy solver's quick-trick bounds).
``void_follower_must_trump(play_rules) -> bool``  a follower out of the led suit who
    holds a trump must play one (``must_trump``; the solver's bounds).

``play_rules`` is :data:`PlayRules`, the play switches (bools, fields named after the
switches: ``Tables.play_rules``); only the functions of this module look inside it, the
callers pass it along. :func:`play_rules_code` / :func:`play_rules_of` carry it through
an int64 (the solver's flat parameter buffer).
``winning_card(tm, ledmask, trump, top_trump) -> int``  the card that wins a trick (mask
    ``tm``, led suit mask ``ledmask``).

API: ending a trick (the playout loops')
-----------------------------------------
``take_trick(tab, pl, unit, win, tm, ten_bit, ten_taker) -> ten_taker``  seat ``win``
    takes the trick ``tm``: its side's cards of scoring unit ``unit`` and its trick count
    in ``pl`` (anything with ``cap`` (units, n_sides) and ``seat_tricks`` (n,): the
    engine's ``Scratch`` and ``Lane``); returns the taker of the Ten of trumps
    (``ten_bit`` its bit, 0 with no trumps) after the trick. The winner leads next and
    a set's last trick leads to the next set's hands (docs/rules.md §1, §2): the loops'
    business, as they walk sets and tricks.

API: a kernel play state, played forward (the inference kernel)
---------------------------------------------------------------
``Play`` (named tuple of int64 arrays, :func:`new_play`):

=================  =====================  ================================================
``set_hands``      (n_sets, n)            each seat's cards dealt per set (read only)
``hands``          (n,)                   the cards each seat holds now (current set)
``owner``          (52,)                  seat dealt each card (-1: not dealt)
``trick_cards``    (tricks, n)            cards of each trick in play order
``trick_leader``   (tricks,)              seat that led each trick
``trick_winner``   (tricks,)              seat that won each finished trick
``cap``            (units, n_sides)       cards taken per scoring unit and side
``seat_tricks``    (n,)                   tricks won per seat
``trump_leads``    (n_sides,)             trump leads per side (finished tricks)
``v``              (N_V,)                 scalars, ``layout.V_*``
=================  =====================  ================================================

``start_play(tab, ps, dealer, trump, turnup)``  a fresh deal from ``ps.set_hands``/``owner``.
``to_move(tab, ps) -> seat``;  ``legal_now(tab, ps) -> mask``  (the seat to move).
``play_card(tab, ps, c)``       the seat to move plays ``c`` (any card it holds; legality is
    the caller's business: ``legal_now``).
``finish_trick(tab, ps) -> winner seat``  resolves a trick of ``n`` cards; the winner leads;
    at a set's end the next set's hands are taken up. The trick is taken by :func:`take_trick`.

``tab`` is the :class:`catchten_sim.rules.Tables` bundle.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .bits import JIT, highest_index, ix
from .layout import (N_V, P_N, P_NSETS, P_SETSIZE, V_DEALER, V_K, V_LEADER, V_LED, V_LOCK,
                     V_PLAYED, V_TEN_TAKER, V_TM, V_TRICK, V_TRUMP, PlayRules)
from .scoring import n_units, unit_of_set

Play = namedtuple("Play", ["set_hands", "hands", "owner", "trick_cards", "trick_leader",
                           "trick_winner", "cap", "seat_tricks", "trump_leads", "v"])


def new_play(n: int, n_sets: int, set_size: int, n_sides: int) -> Play:
    """A zeroed :class:`Play` for ``n`` players (``owner`` filled with -1)."""
    tricks = n_sets * set_size
    z = np.zeros
    return Play(z((n_sets, n), np.int64), z(n, np.int64), np.full(52, -1, np.int64),
                z((tricks, n), np.int64), z(tricks, np.int64), z(tricks, np.int64),
                z((n_sets, n_sides), np.int64), z(n, np.int64), z(n_sides, np.int64),
                z(N_V, np.int64))


# ------------------------------------------------------------------ pure helpers
@njit(inline="always", **JIT)
def suit_mask(s):
    """The 13-bit lane of suit ``s`` (0 for ``s == NO_TRUMPS``: bits 52.. hold no card)."""
    return (np.int64(0x1FFF) << np.int64(13 * s)) & np.int64(0xFFFFFFFFFFFFF)


@njit(inline="always", **JIT)
def trump_mask(trump):
    """The trump suit's mask, 0 with no trumps."""
    return suit_mask(trump)


@njit(inline="always", **JIT)
def card_suit(c):
    """``c // 13`` for 0 <= c < 52, as a multiply and shift (shorter latency)."""
    return (c * 79) >> 10


def play_rules_code(play_rules: PlayRules) -> int:
    """``play_rules`` as an int (bit ``i``: field ``i``), for a flat int64 buffer."""
    return sum(int(bool(f)) << i for i, f in enumerate(play_rules))


@njit(inline="always", **JIT)
def play_rules_of(code):
    """The :data:`PlayRules` of :func:`play_rules_code`'s ``code``."""
    return PlayRules((code & 1) != 0, (code & 2) != 0, (code & 4) != 0)


@njit(inline="always", **JIT)
def turnup_lock_bit(play_rules, turnup):
    """The bit of the turn-up when ``exposed_trump`` locks it (docs/rules.md §3, §7.3), 0
    without the switch or without a turn-up (``turnup`` -1: the dealer declared)."""
    return (np.int64(1) << np.int64(turnup)) if (play_rules.exposed_trump and turnup >= 0) \
        else np.int64(0)


@njit(inline="always", **JIT)
def lock_bit(turnup_bit, t, total):
    """The exposed turn-up's bit while it may not be played: before the deal's last two
    tricks (docs/rules.md §7.3). ``turnup_bit`` is 0 without ``exposed_trump``."""
    return turnup_bit if t < total - 2 else np.int64(0)


@njit(inline="always", **JIT)
def legal_cards(play_rules, hand, lock, k, ledmask, first_of_set, tmask):
    """The legal cards (mask) of ``hand`` for the ``k``-th card of a trick (docs/rules.md §1,
    §3 ``no_trump_first_lead``, §3 ``must_trump``, §7.3, §7.6).

    ``lock``: the locked turn-up's bit (0: none); it is neither playable nor counted as
    holding its suit. ``ledmask``: the led suit's mask (ignored when ``k == 0``).
    ``tmask``: trump mask (0 with no trumps). Selects rather than branches.
    """
    playable = hand & ~lock
    if k == 0:
        nt = playable & ~tmask
        return nt if (play_rules.no_trump_first_lead and first_of_set and nt != 0) \
            else playable
    follow = playable & ledmask
    legal = follow if follow != 0 else playable
    tr = playable & tmask
    return tr if (play_rules.must_trump and follow == 0 and tr != 0) else legal


@njit(inline="always", **JIT)
def trump_lead_allowed(play_rules, hand, first_of_set, tmask):
    """A trump may be led from ``hand`` (docs/rules.md §3 ``no_trump_first_lead``, §7.6):
    not at the first lead of a set while the hand holds another card."""
    return not (play_rules.no_trump_first_lead and first_of_set and (hand & ~tmask) != 0)


@njit(inline="always", **JIT)
def void_follower_must_trump(play_rules):
    """A follower out of the led suit who holds a trump must play one (docs/rules.md §3
    ``must_trump``); without the switch any card."""
    return play_rules.must_trump


@njit(inline="always", **JIT)
def winning_card(tm, ledmask, trump, top_trump):
    """The card that wins a trick with cards ``tm``, the led suit's mask ``ledmask``
    (branch-free).

    The highest trump (``top_trump[lane]``: rank of the highest trump of a 13-bit lane in
    the preset's trump order), else the highest card of the led suit (bit order is the
    plain-suit rank order). With no trumps the trump lane (bits 52..) is empty.
    """
    tlane = (tm >> np.int64(13 * trump)) & np.int64(0x1FFF)
    by_trump = trump * 13 + top_trump[tlane]
    by_led = highest_index(tm & ledmask)
    return by_trump if tlane != 0 else by_led


# ------------------------------------------------------------------ ending a trick
@njit(inline="always", **JIT)
def take_trick(tab, pl, unit, win, tm, ten_bit, ten_taker):
    """Seat ``win`` takes the trick ``tm``: the cards go to its side in scoring unit
    ``unit`` (``pl.cap``), the trick to its count (``pl.seat_tricks``); returns the taker
    of the Ten of trumps after it (``ten_bit``: the Ten's bit, 0 with no trumps;
    docs/rules.md §1, §2, §3, §7.9)."""
    pl.cap[ix(unit), ix(tab.side_of_seat[ix(win)])] |= tm
    pl.seat_tricks[ix(win)] += 1
    return win if (tm & ten_bit) != 0 else ten_taker


# ------------------------------------------------------------------ a play state, forward
@njit(inline="always", **JIT)
def start_play(tab, ps, dealer, trump, turnup):
    """Set ``ps`` to the start of a deal: ``ps.set_hands`` and ``ps.owner`` hold the deal;
    eldest (the dealer's left) leads (docs/rules.md §1). ``turnup`` -1: none."""
    params = tab.params
    n = params[P_N]
    for p in range(n):
        ps.hands[p] = ps.set_hands[0, p]
        ps.seat_tricks[p] = 0
    for u in range(ps.cap.shape[0]):
        for sd in range(ps.cap.shape[1]):
            ps.cap[u, sd] = 0
    for sd in range(ps.trump_leads.shape[0]):
        ps.trump_leads[sd] = 0
    v = ps.v
    v[V_TRICK] = 0
    v[V_K] = 0
    v[V_LEADER] = dealer + 1 if dealer + 1 < n else 0
    v[V_TM] = 0
    v[V_LED] = 0
    v[V_PLAYED] = 0
    v[V_TEN_TAKER] = -1
    v[V_TRUMP] = trump
    v[V_LOCK] = turnup_lock_bit(tab.play_rules, turnup)
    v[V_DEALER] = dealer


@njit(inline="always", **JIT)
def to_move(tab, ps):
    """The seat to play the next card of the current trick."""
    n = tab.params[P_N]
    s = ps.v[V_LEADER] + ps.v[V_K]
    return s - n if s >= n else s


@njit(inline="always", **JIT)
def legal_now(tab, ps):
    """The legal cards of the seat to move (:func:`legal_cards` with the state's trick)."""
    params = tab.params
    v = ps.v
    t = v[V_TRICK]
    set_size = params[P_SETSIZE]
    total = params[P_NSETS] * set_size
    trump = v[V_TRUMP]
    k = v[V_K]
    return legal_cards(tab.play_rules, ps.hands[to_move(tab, ps)],
                       lock_bit(v[V_LOCK], t, total), k, suit_mask(v[V_LED]),
                       t % set_size == 0, trump_mask(trump))


@njit(inline="always", **JIT)
def play_card(tab, ps, c):
    """The seat to move plays card ``c`` to the current trick."""
    v = ps.v
    seat = to_move(tab, ps)
    bit = np.int64(1) << c
    ps.hands[seat] ^= bit
    k = v[V_K]
    ps.trick_cards[v[V_TRICK], k] = c
    v[V_TM] |= bit
    if k == 0:
        v[V_LED] = card_suit(c)
        ps.trick_leader[v[V_TRICK]] = v[V_LEADER]
    v[V_K] = k + 1


@njit(inline="always", **JIT)
def finish_trick(tab, ps):
    """Resolve the current trick (all ``n`` cards played): the winner takes it
    (:func:`take_trick`), the winner leads next; after a set's last trick
    the next set's hands are taken up (docs/rules.md §1, §2). Returns the winning seat."""
    params = tab.params
    v = ps.v
    t = v[V_TRICK]
    tm = v[V_TM]
    led = v[V_LED]
    trump = v[V_TRUMP]
    leader = v[V_LEADER]
    set_size = params[P_SETSIZE]
    st = t // set_size
    win = ps.owner[winning_card(tm, suit_mask(led), trump, tab.top_trump)]
    ten = tab.ten_card[trump]
    ten_bit = np.int64(1) << ten if ten >= 0 else np.int64(0)
    v[V_TEN_TAKER] = take_trick(tab, ps, unit_of_set(n_units(params), st), win, tm, ten_bit,
                                v[V_TEN_TAKER])
    if led == trump:
        ps.trump_leads[tab.side_of_seat[leader]] += 1
    ps.trick_winner[t] = win
    v[V_PLAYED] |= tm
    v[V_TM] = 0
    v[V_K] = 0
    v[V_LED] = 0
    v[V_LEADER] = win
    t += 1
    v[V_TRICK] = t
    if t % set_size == 0 and t < params[P_NSETS] * set_size:
        for p in range(params[P_N]):
            ps.hands[p] = ps.set_hands[st + 1, p]
    return win
