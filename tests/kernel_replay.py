"""A deal's cards replayed through the kernels' trick helpers (``_kernels/trick.py``):
``legal_cards`` at every decision, ``winning_card`` and ``take_trick`` at every trick end,
the exposed turn-up's lock and set transitions as docs/rules.md §1-§3 say. Shared by
test_play_core (against the engine's own play) and test_state_parity (against PlayState).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from catchten_sim._kernels import engine as E
from catchten_sim._kernels import layout as L
from catchten_sim._kernels import scoring as S
from catchten_sim._kernels import trick as T


@njit
def _replay(tab, scr, dealer, trump, turnup, cards, masks, leaders, winners):
    n = tab.params[L.P_N]
    set_size = tab.params[L.P_SETSIZE]
    total = tab.params[L.P_NSETS] * set_size
    units = S.n_units(tab.params)
    turnup_bit = T.turnup_lock_bit(tab.play_rules, turnup)
    tmask = T.trump_mask(trump)
    ten = tab.ten_card[trump]
    ten_bit = np.int64(1) << ten if ten >= 0 else np.int64(0)
    scr.cap[:] = 0
    scr.seat_tricks[:] = 0
    leader = (dealer + 1) % n
    ten_taker = -1
    i = 0
    for t in range(total):
        st = t // set_size
        if t % set_size == 0:
            scr.hands[:] = scr.set_hands[st]
        lock = T.lock_bit(turnup_bit, t, total)
        tm = np.int64(0)
        ledmask = np.int64(0)
        for k in range(n):
            seat = (leader + k) % n
            masks[i] = T.legal_cards(tab.play_rules, scr.hands[seat], lock, k, ledmask,
                                     t % set_size == 0, tmask)
            i += 1
            c = cards[t, k]
            scr.hands[seat] ^= np.int64(1) << c
            tm |= np.int64(1) << c
            if k == 0:
                ledmask = T.suit_mask(T.card_suit(c))
        win = scr.owner[T.winning_card(tm, ledmask, trump, tab.top_trump)]
        leaders[t] = leader
        winners[t] = win
        ten_taker = T.take_trick(tab, scr, S.unit_of_set(units, st), win, tm, ten_bit,
                                 ten_taker)
        leader = win
    return ten_taker


def replay(rules, d, cards):
    """Replay ``cards`` ((tricks, n) in play order) of the deal ``d`` (a ``play.Deal``).

    Returns ``(masks, leaders, winners, ten_taker, scr)``: ``masks[i]`` the legal cards
    before the ``i``-th card, the leader and winner of each trick, the seat that took the
    Ten of trumps (-1 none), and the engine scratch whose ``cap`` and ``seat_tricks`` hold
    what each side and seat took."""
    tab = rules.tables()
    scr = E.scratch(tab)
    scr.set_hands[...] = np.array(d.masks(), dtype=np.int64)
    for st in range(rules.n_sets):
        for seat in range(rules.players):
            for c in range(52):
                if int(scr.set_hands[st, seat]) >> c & 1:
                    scr.owner[c] = seat
    cards = np.asarray(cards, dtype=np.int64)
    masks = np.zeros(cards.size, dtype=np.int64)
    leaders = np.zeros(len(cards), dtype=np.int64)
    winners = np.zeros(len(cards), dtype=np.int64)
    taker = _replay(tab, scr, d.dealer, d.trump, -1 if d.turnup is None else d.turnup,
                    cards, masks, leaders, winners)
    return masks, leaders, winners, int(taker), scr
