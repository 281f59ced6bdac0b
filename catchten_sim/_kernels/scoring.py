"""The scores of a scoring unit, once: honours, the 10♦ bonus, card points, count-out steps.

A scoring unit is the deal, or each six-card set with per-set scoring (docs/rules.md §3
``set_scoring``, §7.9). A side scores, per unit (docs/rules.md §2, §7.1, §7.2):

- the honour points of the trump honours it took (``Tables.honours[trump, card]``: J 11,
  10 10, A 4, K 3, Q 2 in foster; jaques J 3, 9 1; no trumps: A K Q J 10 of every suit),
  the 10♦ bonus included (``ten_of_diamonds_bonus``: 10 more for the 10♦ when diamonds are
  not trumps, in the same table);
- card points ``max(0, cards taken - share)`` when ``card_points`` is on.

Count-out (docs/rules.md §7.10) adds a unit's points step by step, rows ``STEP_*`` of
:mod:`catchten_sim._kernels.layout` (``COUNT_OUT_STEPS``): each honour card's points on
its step (``Tables.step[trump, card]``), card points on ``STEP_CARDS``.

API (``@njit(inline="always")``; ``tab`` the :class:`catchten_sim.rules.Tables` bundle;
``taken`` an int64 mask of cards a side took in one unit)
------------------------------------------------------------------------------------------
``n_units(params) -> int``                      scoring units of a deal: its sets with
    per-set scoring, else 1 (the deal; §3 ``set_scoring``, §7.9).
``unit_of_set(n_units, st) -> int``             the scoring unit of set ``st``.
``card_points(n_taken, share) -> int``          max(0, n_taken - share) (§7.1).
``unit_card_points(tab, n_taken) -> int``       that, or 0 with ``card_points`` off (§3).
``honour_points(tab, trump, taken) -> int``     honours in ``taken``, 10♦ bonus included.
``unit_score(tab, trump, taken) -> (honours, cards, card_points)``  one side, one unit;
    card points 0 when the switch is off.
``side_score(tab, trump, cap, side, n_units) -> (honours, cards, card_points)``  summed
    over the deal's ``n_units`` scoring units (``cap`` int64 (n_sets, n_sides) capture
    masks; 1 unit without per-set scoring).
``add_steps(tab, trump, taken, row)``           adds one side's unit to a count-out row
    ``row`` (int (N_STEPS,)): honours on their steps, card points on ``STEP_CARDS``.
``honours_dealt(tab, n, set_hands, trump, acc)``  ``acc[side] +=`` honour points dealt
    to each side (``set_hands`` int64 (n_sets, n)); returns the seat dealt the Ten of
    trumps (-1: none).
"""
from __future__ import annotations

from numba import njit

import numpy as np

from .bits import JIT, lowest_index, popcount
from .layout import P_NSETS, P_PERSET, P_SHARE, STEP_CARDS


@njit(inline="always", **JIT)
def n_units(params):
    """The scoring units of a deal (docs/rules.md §3 ``set_scoring``, §7.9): each set with
    per-set scoring, else the whole deal (1). ``params``: ``Tables.params``."""
    return np.int64(params[P_NSETS]) if params[P_PERSET] != 0 else np.int64(1)


@njit(inline="always", **JIT)
def unit_of_set(n_units, st):
    """The scoring unit of set ``st`` (0-based) in a deal of ``n_units`` units
    (:func:`n_units`): the set itself when each set is scored, else 0 (the deal)."""
    return st if n_units > 1 else 0 * st


@njit(inline="always", **JIT)
def card_points(n_taken, share):
    """Card points of a side that took ``n_taken`` cards in a unit: max(0, n - share)."""
    d = n_taken - share
    return d if d > 0 else 0


@njit(inline="always", **JIT)
def honour_points(tab, trump, taken):
    """Honour points of the cards ``taken`` with trumps ``trump`` (10♦ bonus included):
    one lookup per suit in ``tab.hon_lane`` (honours are cards of rank 9 or higher)."""
    hl = tab.hon_lane[trump]
    return (hl[0, (taken >> np.int64(7)) & np.int64(63)]
            + hl[1, (taken >> np.int64(20)) & np.int64(63)]
            + hl[2, (taken >> np.int64(33)) & np.int64(63)]
            + hl[3, (taken >> np.int64(46)) & np.int64(63)])


@njit(inline="always", **JIT)
def unit_card_points(tab, n_taken):
    """The card points of a side that took ``n_taken`` cards in one unit: :func:`card_points`
    over the share, 0 when the ``card_points`` switch is off (docs/rules.md §2, §3). The one
    kernel reader of that switch."""
    return card_points(n_taken, tab.params[P_SHARE]) if tab.card_points else 0


@njit(inline="always", **JIT)
def unit_score(tab, trump, taken):
    """``(honours, cards, card_points)`` of one side in one unit (card points 0 when
    ``card_points`` is off)."""
    k = popcount(taken)
    return honour_points(tab, trump, taken), k, unit_card_points(tab, k)


@njit(inline="always", **JIT)
def side_score(tab, trump, cap, side, n_units):
    """``(honours, cards, card_points)`` of ``side`` summed over the first ``n_units``
    scoring units of ``cap``."""
    hon = 0
    cards = 0
    cp = 0
    for u in range(n_units):
        h, k, c = unit_score(tab, trump, cap[u, side])
        hon += h
        cards += k
        cp += c
    return hon, cards, cp


@njit(inline="always", **JIT)
def add_steps(tab, trump, taken, row):
    """Add one side's unit (cards ``taken``) to the count-out row ``row`` (N_STEPS,)."""
    m = taken & tab.hon_mask[trump]
    while m != 0:
        c = lowest_index(m)
        m &= m - 1
        row[tab.step[trump, c]] += tab.honours[trump, c]
    row[STEP_CARDS] += unit_card_points(tab, popcount(taken))


@njit(inline="always", **JIT)
def honours_dealt(tab, sp_n, set_hands, trump, acc):
    """``acc[side] +=`` the honour points dealt to each side (``set_hands`` int64
    (n_sets, n), ``sp_n`` players); returns the seat dealt the Ten of trumps (-1: none:
    dead, or no trumps)."""
    ten = tab.ten_card[trump]
    ten_bit = np.int64(1) << ten if ten >= 0 else np.int64(0)
    holder = -1
    for p in range(sp_n):
        m = np.int64(0)
        for st in range(set_hands.shape[0]):
            m |= set_hands[st, p]
        acc[tab.side_of_seat[p]] += honour_points(tab, trump, m)
        holder = p if (m & ten_bit) != 0 else holder
    return holder
