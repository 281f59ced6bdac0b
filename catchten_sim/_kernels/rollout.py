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

from collections import namedtuple

import numpy as np
from numba import njit

from .bits import KERNEL_JIT, lowest_index, rng_seed
from .engine import Dealt, Log, Seats, Start, play_deal
from .layout import (N_R_FIXED, N_STEPS, P_N, P_NSIDES, P_SETSIZE,
                     R_CARD_POINTS, R_CARDS, R_HONOURS, R_PER_SIDE, R_TEN_HOLDER_SIDE,
                     R_TEN_TAKER_SIDE, R_TOTAL)
from .scoring import add_steps, n_units as n_units_of, unit_of_set, unit_score
from .spec import spec_of

__all__ = ["N_R_FIXED", "N_STEPS", "NO_CARD", "R_CARD_POINTS", "R_CARDS", "R_HONOURS",
           "R_PER_SIDE", "R_TEN_HOLDER_SIDE", "R_TEN_TAKER_SIDE", "R_TOTAL", "RolloutJob",
           "n_out_cols", "rollout_chunk"]

#: what a rollout resumes from and plays with: ``owner_known`` int64 (52,) the seat that
#: played each played card (-1 elsewhere); ``cap_mask0`` int64 (units, n_sides) the cards
#: taken in the completed tricks; ``trump_leads0`` int64 (n_sides,) trump leads in them;
#: ``start`` the tuple of 7 ints of :func:`engine.play_deal` (the current trick before the
#: mover's card and what is behind it); ``mover``, ``dealer``, ``trump``, ``turnup`` ints;
#: ``policies`` int64 (n,); ``seed`` uint64 of the play streams.
RolloutJob = namedtuple("RolloutJob", ["owner_known", "cap_mask0", "trump_leads0", "start",
                                       "mover", "dealer", "trump", "turnup", "policies",
                                       "seed"])

NO_CARD = -1            # candidate meaning "no forced card: the policy plays too"


def n_out_cols(n_sides):
    return N_R_FIXED + (R_PER_SIDE + N_STEPS) * n_sides


@njit(**KERNEL_JIT)
def rollout_chunk(tab, scr, job, hands, cands, first, out, do_log, logs):
    """Roll out every candidate on every determinization of a chunk.

    Parameters
    ----------
    tab : :data:`catchten_sim.rules.Tables`; scr : :data:`engine.Scratch`.
    job : :data:`RolloutJob`.
    hands : int64 (m, n_sets, n): per determinization, the cards each seat holds now in
        the current set and its cards of later sets.
    cands : int64 (n_cand,): the mover's candidate cards (``NO_CARD``: play by policy).
    first : int64, number of the chunk's first sample (sample ``i`` draws from the stream
        ``(job.seed, first + i)``).
    out : int16 (m, n_cand, n_out_cols(n_sides)) filled.
    do_log : bool, log the play (one sample, one candidate) into ``logs`` (as
        :func:`engine.play_deal`).

    Scores by :mod:`.scoring` (honours, card points, count-out steps of the current unit).
    """
    params = tab.params
    sp = spec_of(tab)
    n = params[P_N]
    n_sides = params[P_NSIDES]
    set_size = params[P_SETSIZE]
    t0, leader0, k0, tm0, led0, played0, ten_taker0 = job.start
    cap_mask0 = job.cap_mask0
    trump = job.trump
    mover = job.mover
    n_units = cap_mask0.shape[0]
    cur_unit = unit_of_set(n_units_of(params), t0 // set_size)
    st0 = t0 // set_size
    side_of_seat = tab.side_of_seat
    set_hands = scr.set_hands
    owner = scr.owner
    cap_mask = scr.cap
    ten = tab.ten_card[trump]
    n_sets = hands.shape[1]
    for i in range(hands.shape[0]):
        # who holds (or played) every card in this determinization
        for c in range(52):
            owner[c] = job.owner_known[c]
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
                scr.seat_tricks[p] = 0
            for sd in range(n_sides):
                scr.trump_leads[sd] = job.trump_leads0[sd]
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
            scr.spos[0] = 0
            s = rng_seed(job.seed, first + i)
            ten_taker, s = play_deal(tab, sp, scr, Dealt(job.dealer, trump, job.turnup),
                                     Seats(job.policies, scr.spos, False), s,
                                     Log(do_log, logs[0], logs[1], logs[2]),
                                     Start(True, t0, leader0, k, tm, led, played0, ten_taker0))
            o = out[i, j]
            o[R_TEN_TAKER_SIDE] = side_of_seat[ten_taker] if ten_taker >= 0 else -1
            o[R_TEN_HOLDER_SIDE] = holder_side
            sbase = N_R_FIXED + n_sides * R_PER_SIDE
            for sd in range(n_sides):
                cards = 0
                cp = 0
                hon = 0
                steps = o[sbase + sd * N_STEPS:sbase + (sd + 1) * N_STEPS]
                for kk in range(N_STEPS):
                    steps[kk] = 0
                for u in range(n_units):
                    taken = cap_mask[u, sd] | cap_mask0[u, sd]
                    h, kc, cpu = unit_score(tab, trump, taken)
                    hon += h
                    cards += kc
                    cp += cpu
                    if u == cur_unit:
                        add_steps(tab, trump, taken, steps)
                base = N_R_FIXED + sd * R_PER_SIDE
                o[base + R_HONOURS] = hon
                o[base + R_CARDS] = cards
                o[base + R_CARD_POINTS] = cp
                o[base + R_TOTAL] = hon + cp
