"""Rollouts from a mid-deal position: the kernel behind ``catchten advise`` and ``odds``.

For every determinization (a full deal consistent with what the player to move knows,
from :mod:`catchten_sim._kernels.sampler`) and every candidate card, play the card, then
let the policies play the deal out with :func:`engine.play_deal` resumed at the current
trick. Common random numbers: every candidate of sample ``i`` is played on the same hands
and draws from the same random stream ``(seed, i)``, so differences between candidates are
measured on matched deals.

Arrays and ints in, arrays and ints out; no allocation (``KERNEL_JIT``): the Python wrapper
(:mod:`catchten_sim.advise`) passes every array, scratch included.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import KERNEL_JIT, lowest_index, popcount, rng_seed
from .engine import P_CARDPTS, P_N, P_NSIDES, P_PERSET, P_SETSIZE, P_SHARE, play_deal

# output columns per (sample, candidate)
R_TEN_TAKER_SIDE = 0    # side that took the Ten of trumps by the end (-1: nobody)
R_TEN_HOLDER_SIDE = 1   # side of the seat dealt the Ten (-1: dead, or no trumps)
N_R_FIXED = 2
# per side s, at N_R_FIXED + s * R_PER_SIDE + field
R_HONOURS = 0
R_CARDS = 1
R_CARD_POINTS = 2
R_TOTAL = 3
R_PER_SIDE = 4
# then, per side s, at N_R_FIXED + n_sides * R_PER_SIDE + s * N_STEPS + k: the side's points
# at count-out step k (rules.COUNT_OUT_STEPS: ten, ten_of_diamonds, cards, ace, king,
# queen, jack, nine) over the whole hand (with per-set scoring: the current set's unit)
N_STEPS = 8
STEP_CARDS = 2

NO_CARD = -1            # candidate meaning "no forced card: the policy plays too"


def n_out_cols(n_sides):
    return N_R_FIXED + (R_PER_SIDE + N_STEPS) * n_sides


@njit(**KERNEL_JIT)
def rollout_chunk(params, side_of_seat, trump_power, honours, ten_card, top_trump, ptab,
                  hands, owner_known, cands, mover, start, cap_mask0, step,
                  trump_leads0, dealer, trump, turnup, policies, seed, first, out, scr,
                  do_log, logs):
    """Roll out every candidate on every determinization of a chunk.

    Parameters
    ----------
    hands : int64 (m, n_sets, n): per determinization, the cards each seat holds now in
        the current set and its cards of later sets.
    owner_known : int64 (52,): the seat that played each played card, -1 elsewhere.
    cands : int64 (n_cand,): the mover's candidate cards (``NO_CARD``: play by policy).
    mover : int, the player to move.
    start : tuple of 7 ints ``(t0, leader0, k0, tm0, led0, played0, ten_taker0)``: the
        position's current trick (before the mover's card) and what is behind it, as in
        :func:`engine.play_deal`.
    cap_mask0 : int64 (units, n_sides): the cards taken in the completed tricks;
    step : int64 (5, 52) count-out step of each card's honour points (-1 none);
    trump_leads0 : int64 (n_sides,) trump leads in the completed tricks.
    policies : int64 (n,); seed : uint64; first : int64, number of the chunk's first
        sample (sample ``i`` draws from the stream ``(seed, first + i)``).
    out : int16 (m, n_cand, n_out_cols(n_sides)) filled.
    scr : :func:`engine.scratch`; do_log : bool, log the play (one sample, one candidate)
        into ``logs`` (as :func:`engine.play_deal`).
    """
    n = params[P_N]
    n_sides = params[P_NSIDES]
    share = params[P_SHARE]
    cardpts = params[P_CARDPTS] != 0
    n_units = cap_mask0.shape[0]
    cur_unit = 0
    if params[P_PERSET] != 0:
        cur_unit = start[0] // params[P_SETSIZE]
    hon_mask = ptab[1]
    set_hands, hands_cur, owner, cap_mask, seat_tricks, side_trump_leads, spos, side_acc, \
        row = scr
    t0, leader0, k0, tm0, led0, played0, ten_taker0 = start
    st0 = t0 // params[P_SETSIZE]
    ten = ten_card[trump]
    hm = hon_mask[trump]
    n_sets = hands.shape[1]
    for i in range(hands.shape[0]):
        # who holds (or played) every card in this determinization
        for c in range(52):
            owner[c] = owner_known[c]
        for st in range(n_sets):
            for p in range(n):
                m = hands[i, st, p]
                while m != 0:
                    owner[lowest_index(m)] = p
                    m &= m - 1
        holder_side = -1
        if ten >= 0 and owner[ten] >= 0:
            holder_side = side_of_seat[owner[ten]]
        for j in range(cands.shape[0]):
            c = cands[j]
            for st in range(n_sets):
                for p in range(n):
                    set_hands[st, p] = hands[i, st, p]
            for u in range(n_units):
                for sd in range(n_sides):
                    cap_mask[u, sd] = 0
            for p in range(n):
                seat_tricks[p] = 0
            for sd in range(n_sides):
                side_trump_leads[sd] = trump_leads0[sd]
            k = k0
            tm = tm0
            led = led0
            if c >= 0:
                bit = np.int64(1) << c
                set_hands[st0, mover] ^= bit
                tm |= bit
                if k0 == 0:
                    led = c // 13
                k = k0 + 1
            spos[0] = 0
            s = rng_seed(seed, first + i)
            ten_taker, s = play_deal(params, side_of_seat, trump_power, honours, ten_card,
                                     top_trump, ptab, set_hands, dealer, trump, turnup,
                                     policies, s, spos, spos, hands_cur, owner, cap_mask,
                                     seat_tricks, side_trump_leads, do_log, logs, False,
                                     (t0, leader0, k, tm, led, played0, ten_taker0), True)
            o = out[i, j]
            o[R_TEN_TAKER_SIDE] = side_of_seat[ten_taker] if ten_taker >= 0 else -1
            o[R_TEN_HOLDER_SIDE] = holder_side
            sbase = N_R_FIXED + n_sides * R_PER_SIDE
            for sd in range(n_sides):
                cards = 0
                cp = 0
                hon = 0
                for k in range(N_STEPS):
                    o[sbase + sd * N_STEPS + k] = 0
                for u in range(n_units):
                    taken = cap_mask[u, sd] | cap_mask0[u, sd]
                    kk = popcount(taken)
                    cards += kk
                    cpu = kk - share if kk > share else 0
                    cp += cpu
                    mm = taken & hm
                    while mm != 0:
                        cc = lowest_index(mm)
                        mm &= mm - 1
                        hon += honours[trump, cc]
                        if u == cur_unit and step[trump, cc] >= 0:
                            o[sbase + sd * N_STEPS + step[trump, cc]] += honours[trump, cc]
                    if u == cur_unit and cardpts:
                        o[sbase + sd * N_STEPS + STEP_CARDS] = cpu
                if not cardpts:
                    cp = 0
                base = N_R_FIXED + sd * R_PER_SIDE
                o[base + R_HONOURS] = hon
                o[base + R_CARDS] = cards
                o[base + R_CARD_POINTS] = cp
                o[base + R_TOTAL] = hon + cp
