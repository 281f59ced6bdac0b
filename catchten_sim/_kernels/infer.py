"""Inference: how likely the play so far is in a world, under a model of the other seats.

A world is a full deal consistent with what the observer knows (a determinization, as
:class:`catchten_sim.determinize.Sampler` draws them, with the cards already played put
back into the hands that played them). The model of a seat's play is the ``heuristic``
policy (:func:`.policy.heuristic_choice`, deterministic) mixed with a uniform choice among
the legal cards::

    pi(card | seat's information, its hand in the world)
        = (1 - eps) * [card == heuristic's choice] + eps / n_legal

The heuristic sees only its own hand, the cards of finished tricks, the trick so far and
the trump leads, so replaying the play in a world gives it exactly what that seat knew.
A forced card (one legal card) has pi = 1 and tells nothing; a card that is not legal in
the world (a world that breaks a void or a rule) has pi = 0.

API
---
``Game = (dealer, trump, turnup)`` int64 tuple (``turnup`` -1 with ``dealer_declares``).
``Obs = (play, score)``: ``play`` int64 (L,) the cards played so far in order (L <= cards
dealt); ``score`` int64 (L,) 1 for a card whose ``pi`` counts (the other seats' cards), 0
for a card that is replayed only (the observer's own, and any card the caller leaves out).

``Work = (ps, hit, nlegal)``: ``ps`` a :data:`.trick.Play` work area
(:func:`.trick.new_play`), ``hit`` and ``nlegal`` int64 (>= L,) (the kernels allocate
nothing).

``card_terms(tab, work, world, game, obs)`` one world, card by card:
    ``hit[i]`` 1 when card ``i`` is the heuristic's choice, 0 when not, -1 when it is
    not scored, -2 when it is not legal in the world (or not in the hand); ``nlegal[i]``
    the number of legal cards then. For fitting ``eps`` (:mod:`catchten_sim.inference`).
``log_weights(tab, work, worlds, game, obs, eps, out)`` ``out = (logw, low)`` float64
    (m,): ``logw[w]`` the sum over scored cards of ``log pi`` in world ``worlds[w]``
    (``-inf`` when a card is impossible there), ``low[w]`` the smallest ``pi`` of a scored
    card there (1 when none; for rejection with a floor).

``world`` int64 (n_sets, n) the cards each seat was dealt per set (played ones included).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import JIT, KERNEL_JIT, ix, lowest_index, popcount
from .layout import P_N, P_NSETS, V_K, V_LED, V_PLAYED, V_TM
from .policy import Turn, heuristic_choice
from .trick import (finish_trick, legal_now, play_card, start_play, suit_mask, to_move,
                    winning_card)


@njit(inline="always", **JIT)
def _load(tab, ps, world, game):
    """Start ``ps`` on ``world`` (set hands and the owner of every card)."""
    n = tab.params[P_N]
    n_sets = tab.params[P_NSETS]
    for c in range(52):
        ps.owner[c] = -1
    for st in range(n_sets):
        for p in range(n):
            m = world[st, p]
            ps.set_hands[st, p] = m
            while m != 0:
                low = m & -m
                ps.owner[lowest_index(low)] = p
                m ^= low
    start_play(tab, ps, game[0], game[1], game[2])


@njit(inline="always", **JIT)
def _replay(tab, ps, world, game, obs, hit, nlegal):
    """Replay ``obs``'s play in ``world``; fill ``hit``/``nlegal`` (:func:`card_terms`).
    Stops at the first impossible card (the later entries are left as they were)."""
    play, score = obs
    n = tab.params[P_N]
    trump = game[1]
    _load(tab, ps, world, game)
    v = ps.v
    i8 = np.int64
    for i in range(play.shape[0]):
        c = play[i]
        seat = to_move(tab, ps)
        legal = legal_now(tab, ps)
        if ((legal >> c) & 1) == 0:
            hit[i] = -2
            nlegal[i] = popcount(legal)
            return False
        nl = popcount(legal)
        nlegal[i] = nl
        if score[i] == 0:
            hit[i] = -1
        elif nl == 1:
            hit[i] = 1
        else:
            k = v[V_K]
            tm = v[V_TM]
            led = v[V_LED]
            win_card = i8(-1)
            win_seat = i8(-1)
            if k > 0:
                win_card = i8(winning_card(tm, suit_mask(led), trump, tab.top_trump))
                win_seat = ps.owner[ix(win_card)]
            h = heuristic_choice(tab, Turn(i8(seat), i8(legal), i8(ps.hands[ix(seat)]),
                                           i8(k), i8(led), i8(tm), i8(trump),
                                           i8(v[V_PLAYED]), (win_card, win_seat)),
                                 ps.trump_leads)
            hit[i] = 1 if h == c else 0
        play_card(tab, ps, c)
        if v[V_K] == n:
            finish_trick(tab, ps)
    return True


@njit(**KERNEL_JIT)
def card_terms(tab, work, world, game, obs):
    """One world, card by card, into ``work``'s ``hit``/``nlegal`` (module docstring).
    Returns False when a card of the play is impossible in ``world``."""
    ps, hit, nlegal = work
    return _replay(tab, ps, world, game, obs, hit, nlegal)


@njit(**KERNEL_JIT)
def log_weights(tab, work, worlds, game, obs, eps, out):
    """``out = (logw, low)``: the log of the product of ``pi`` over the scored cards in
    ``worlds[w]`` (int64 (m, n_sets, n)) and the smallest such ``pi``; ``eps`` the uniform
    share of the model (0 <= eps <= 1)."""
    ps, hit, nlegal = work
    logw, low = out
    L = obs[0].shape[0]
    for w in range(worlds.shape[0]):
        ok = _replay(tab, ps, worlds[w], game, obs, hit, nlegal)
        if not ok:
            logw[w] = -np.inf
            low[w] = 0.0
            continue
        acc = 0.0
        lo = 1.0
        for i in range(L):
            if hit[i] < 0 or nlegal[i] == 1:
                continue
            p = eps / nlegal[i] + (1.0 - eps if hit[i] == 1 else 0.0)
            lo = p if p < lo else lo
            acc += np.log(p) if p > 0.0 else -np.inf
        logw[w] = acc
        low[w] = lo
