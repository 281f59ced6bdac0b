"""Dealing: the counter-based shuffle and deal, the turn-up, the dealer's declaration.

API (``@njit(inline="always")``; ``tab`` the :class:`catchten_sim.rules.Tables` bundle)
-------------------------------------------------------------------------------------
``sp`` is the shape tuple of :mod:`.spec`; the switches of dealing are read here alone,
from ``tab.deal_rules`` (:data:`catchten_sim.rules.DealRules`).

``laid_aside(deal_rules) -> int``  cards laid aside undealt (``keep_six_of_spades``: 1).

``deal_cards(tab, sp, dealer, s, set_hands, owner) -> (turnup, dead, s)``
    shuffle and deal one deal from the uint64 RNG state ``s`` (docs/rules.md §1, §2, §3
    ``keep_six_of_spades``, §7.7); ``set_hands`` int64 (n_sets, n) and ``owner`` int64
    (52,) are filled.
``deal_cards2(tab, sp, a, b, (dealer_a, s_a), (dealer_b, s_b)) -> (turnup_a, turnup_b,
s_a, s_b)``  two deals of ``deal_cards`` in lockstep (each the same as alone).
``deal_begin(tab, sp, dealer, s, set_hands) -> (turnup, dl)`` and ``deal_step(dl,
set_hands, n, per_set_cards) -> dl``  the same deal as ``deal_cards`` one card at a time
(``owner`` not filled), for a caller that spreads it over other work.
``declare_trumps(honours, hand) -> trump``  jaques ``dealer_declares`` (docs/rules.md §4).
``fix_trumps(tab, set_hands, dealer, turnup) -> (trump, turnup)``.
``deal_trumps(tab, sp, dealer, s, set_hands, owner) -> (trump, turnup, dead, s)``
    deal, then fix trumps: the turn-up's suit, or the dealer's declaration (``turnup``
    -1 then).

Deal ``i`` of seed ``k`` draws from the stream ``bits.rng_seed(k, i)``: results depend
on the seed only, never on threads or chunking.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import JIT, KERNEL_JIT, ix, lowest_index, popcount, rng_below_s, select_bit
from .layout import NO_TRUMPS
from .spec import S_N, S_NSETS, S_SETSIZE
from .trick import suit_mask


@njit(inline="always", **JIT)
def laid_aside(deal_rules):
    """Cards laid aside before dealing (docs/rules.md §3 ``keep_six_of_spades``, §7.7): 1
    when the switch applies (5 or 7 players, foster: 35 of 36 dealt), else 0."""
    return np.int64(1) if deal_rules.keep_six_of_spades else np.int64(0)


@njit(inline="always", **JIT)
def deal_cards(tab, sp, dealer, s, set_hands, owner):
    """Shuffle and deal (docs/rules.md §1, §2; sets §2; ``keep_six_of_spades`` §3).

    Fills ``set_hands`` (n_sets, n) and ``owner`` (seat dealt each card of the deck, -1
    for a card laid aside; entries of cards outside the deck are left alone) and returns
    ``(turnup, dead, s)``: card indices (``dead`` -1 when no card is laid aside) and the
    RNG state. Card ``i`` of the shuffled pack goes to seat ``(dealer + 1 + i) % n`` in set
    ``i // (n * set_size)``; the last card dealt is the dealer's and is the turn-up.

    The pack is shuffled from the top down: position ``i`` (``d-1`` … 0) gets a uniformly
    drawn card among the ``i + 1`` not yet placed (the ``k``-th set bit of their mask), and
    is dealt at once. No array is touched but the hands, so no step waits on a memory
    round-trip of the previous one (a Fisher-Yates swap does).
    """
    n = sp[S_N]
    n_sets = sp[S_NSETS]
    per_set_cards = n * sp[S_SETSIZE]
    n_dealt = per_set_cards * n_sets
    d = n_dealt + laid_aside(tab.deal_rules)
    for st in range(n_sets):
        for p in range(n):
            set_hands[st, p] = 0
    rest = tab.deck_mask
    dead = -1
    # the card laid aside (top of the pack, not dealt)
    for i in range(d - 1, n_dealt - 1, -1):
        s, k = rng_below_s(s, i + 1)
        bit = select_bit(rest, k)
        rest ^= bit
        dead = lowest_index(bit)
        owner[dead] = -1
    # position i -> seat (dealer + 1 + i) % n, set i // per_set_cards; walk i downwards
    seat = (dealer + n_dealt) % n
    i = n_dealt - 1
    turnup = -1
    for st in range(n_sets - 1, -1, -1):
        hands = set_hands[ix(st)]
        for _ in range(per_set_cards):
            s, k = rng_below_s(s, i + 1)      # k = 0 for i = 0: no branch for the last card
            bit = select_bit(rest, k)
            rest ^= bit
            c = lowest_index(bit)
            hands[ix(seat)] |= bit
            owner[ix(c)] = seat
            turnup = c if i == n_dealt - 1 else turnup
            seat = seat - 1 if seat > 0 else n - 1
            i -= 1
    return turnup, dead, s


@njit(inline="always", **JIT)
def _draw(s, i, rest):
    """Position ``i`` of the pack: ``(s, bit, rest)``, a card drawn uniformly among the
    ``i + 1`` of ``rest`` (its ``k``-th set bit) and ``rest`` without it."""
    s, k = rng_below_s(s, i + 1)
    bit = select_bit(rest, k)
    return s, bit, rest ^ bit


@njit(inline="always", **JIT)
def deal_cards2(tab, sp, a, b, deal_a, deal_b):
    """Two deals of :func:`deal_cards` in lockstep (position ``i`` of deal ``a``, then of
    deal ``b``), so that the CPU overlaps their chains of dependent steps; each draws
    from its own RNG state exactly as :func:`deal_cards` does, so each deal is the same.

    ``a``, ``b``: named tuples with ``set_hands`` and ``owner`` (filled); ``deal_a``,
    ``deal_b``: ``(dealer, s)``. Returns ``(turnup_a, turnup_b, s_a, s_b)``.
    """
    n = sp[S_N]
    n_sets = sp[S_NSETS]
    per_set_cards = n * sp[S_SETSIZE]
    n_dealt = per_set_cards * n_sets
    d = n_dealt + laid_aside(tab.deal_rules)
    dealer_a, s_a = deal_a
    dealer_b, s_b = deal_b
    for st in range(n_sets):
        for p in range(n):
            a.set_hands[st, p] = 0
            b.set_hands[st, p] = 0
    rest_a = tab.deck_mask
    rest_b = tab.deck_mask
    for i in range(d - 1, n_dealt - 1, -1):
        s_a, bit, rest_a = _draw(s_a, i, rest_a)
        a.owner[lowest_index(bit)] = -1
        s_b, bit, rest_b = _draw(s_b, i, rest_b)
        b.owner[lowest_index(bit)] = -1
    seat_a = (dealer_a + n_dealt) % n
    seat_b = (dealer_b + n_dealt) % n
    i = n_dealt - 1
    turnup_a = -1
    turnup_b = -1
    for st in range(n_sets - 1, -1, -1):
        ha = a.set_hands[ix(st)]
        hb = b.set_hands[ix(st)]
        for _ in range(per_set_cards):
            s_a, bit, rest_a = _draw(s_a, i, rest_a)
            ha[ix(seat_a)] |= bit
            c = lowest_index(bit)
            a.owner[ix(c)] = seat_a
            turnup_a = c if i == n_dealt - 1 else turnup_a
            s_b, bit, rest_b = _draw(s_b, i, rest_b)
            hb[ix(seat_b)] |= bit
            c = lowest_index(bit)
            b.owner[ix(c)] = seat_b
            turnup_b = c if i == n_dealt - 1 else turnup_b
            seat_a = seat_a - 1 if seat_a > 0 else n - 1
            seat_b = seat_b - 1 if seat_b > 0 else n - 1
            i -= 1
    return turnup_a, turnup_b, s_a, s_b


@njit(inline="always", **JIT)
def deal_begin(tab, sp, dealer, s, set_hands):
    """Start dealing a deal one card at a time (:func:`deal_step`), for a caller that
    spreads the dealing over other work (the play of the deal before): the same deal as
    :func:`deal_cards` from ``s`` (``owner`` is not filled). Zeroes ``set_hands``, draws
    the laid-aside cards and the turn-up (the first card dealt, the dealer's). Returns
    ``(turnup, dl)``: ``dl`` the dealing state ``(s, rest, i, seat, st, left)`` for
    :func:`deal_step` (``i`` the next position, -1 when all are dealt)."""
    n = sp[S_N]
    n_sets = sp[S_NSETS]
    per_set_cards = n * sp[S_SETSIZE]
    n_dealt = per_set_cards * n_sets
    for st in range(n_sets):
        for p in range(n):
            set_hands[st, p] = 0
    rest = tab.deck_mask
    for i in range(n_dealt + laid_aside(tab.deal_rules) - 1, n_dealt - 1, -1):
        s, _, rest = _draw(s, i, rest)
    i = n_dealt - 1
    seat = (dealer + n_dealt) % n
    s, bit, rest = _draw(s, i, rest)
    set_hands[n_sets - 1, seat] |= bit
    dl = (s, rest, np.int64(i), np.int64(seat), np.int64(n_sets - 1), np.int64(per_set_cards))
    return lowest_index(bit), deal_advance(dl, n, per_set_cards)


@njit(inline="always", **JIT)
def deal_advance(dl, n, per_set_cards):
    """The dealing state ``dl`` moved on to the next position (seat to the right, the
    set before after ``per_set_cards`` cards)."""
    s, rest, i, seat, st, left = dl
    left -= 1
    return (s, rest, i - 1, seat - 1 if seat > 0 else n - 1, st - 1 if left == 0 else st,
            per_set_cards if left == 0 else left)


@njit(**JIT)
def deal_step(dl, set_hands, n, per_set_cards):
    """Deal the card at the next position of the dealing state ``dl`` (:func:`deal_begin`;
    ``i >= 0``) into ``set_hands``: the state after it. Not ``inline="always"`` (LLVM
    inlines it anyway), which costs numba's inlining of the play loop less compile time."""
    s, rest, i, seat, st, left = dl
    s, bit, rest = _draw(s, i, rest)
    set_hands[ix(st), ix(seat)] |= bit
    return deal_advance((s, rest, i, seat, st, left), n, per_set_cards)


@njit(forceinline=True, **KERNEL_JIT)
def declare_trumps(honours, hand):
    """jaques ``dealer_declares``: the dealer's choice of trumps (4 = no trumps);
    ``honours`` is ``Tables.honours``. Compiled once by numba, inlined by LLVM
    (``forceinline``): numba's inlining of it at four sites cost compile time.

    No trumps when the longest suit has at most three cards and the hand holds two Aces
    or more; otherwise the longest suit, ties to the suit whose honours the dealer holds
    most points of, then the lower suit code.
    """
    best = 0
    best_len = -1
    best_hon = -1
    aces = 0
    for s in range(4):
        m = hand & suit_mask(s)
        ln = popcount(m)
        if (hand >> (s * 13 + 12)) & 1:
            aces += 1
        hon = 0
        while m != 0:
            d = lowest_index(m)
            m &= m - 1
            hon += honours[s, d]
        if ln > best_len or (ln == best_len and hon > best_hon):
            best = s
            best_len = ln
            best_hon = hon
    if best_len <= 3 and aces >= 2:
        return NO_TRUMPS
    return best


@njit(inline="always", **JIT)
def deal_trumps(tab, sp, dealer, s, set_hands, owner):
    """Deal, then fix trumps: ``(trump, turnup, dead, s)`` (``turnup`` -1 when the dealer
    declares)."""
    turnup, dead, s = deal_cards(tab, sp, dealer, s, set_hands, owner)
    trump, turnup = fix_trumps(tab, set_hands, dealer, turnup)
    return trump, turnup, dead, s


@njit(inline="always", **JIT)
def fix_trumps(tab, set_hands, dealer, turnup):
    """``(trump, turnup)`` of a dealt deal: the turn-up's suit, or the dealer's
    declaration (``turnup`` -1 then; docs/rules.md §4)."""
    if tab.deal_rules.dealer_declares:
        return declare_trumps(tab.honours, np.int64(set_hands[0, dealer])), -1
    return turnup // 13, turnup
