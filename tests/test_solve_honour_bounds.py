"""The solver's bounds on the honours at a trick start (issue 26) against brute force: the
honours each team keeps whatever is played (``_keep``) and what the leader's team surely
makes by its best plan (``_lead_sure``: quick tricks, drawing trumps, a lead to a
partner's top card then a draw, a partner's ruff with an honour). Each bound, as the
search would use it, must hold the exact value of random endings of every preset, player
count and switch, seen from each side (the search uses them with honours only, the
quick tricks alone with card points; they are checked in every scoring mode)."""
from __future__ import annotations

import random

import numpy as np
from bruteforce import Ending, brute_values, random_ending
from exactness import SOLVE_CONFIGS

from catchten_sim._kernels import solve as K
from catchten_sim.cards import parse_card
from catchten_sim.solve import _deal_of, _tables_of


def _bounds(rec: dict, root: int):
    """``(lower, upper, leader_side, structural_gain)``: the bounds on the future value
    the search draws from the honours at this trick start, seen by side ``root``, and
    how much tighter they are than the top run of trumps alone (``_sure``)."""
    deal = _deal_of(rec)
    T = _tables_of(deal)
    S = K.new_state()
    play = np.array([parse_card(c) for c in rec["play"]] or [0], np.int64)
    pos, _cnt, acc = K._set_up(T, S, deal.masks, play, len(rec["play"]), root)
    p = T.p
    n = p[K.K_N]
    leader = pos & 255
    t = pos >> 16
    assert (pos >> 8) & 255 == 0
    allc = np.int64(0)
    for q in range(n):
        allc |= S.hands[q]
    rem = S.future[t // p[K.K_SETSIZE]] | allc
    honours = K._honours_of(T, rem)
    left = p[K.K_NTRICKS] - t
    pr, tr_, po, to, run, _spin = K._sure(T, S, root, S.tmp)
    kr, ko, _rc = K._keep(T.buf, S.buf, root, allc, np.int64(0))
    assert kr >= pr and ko >= po
    upper = honours - 2 * ko
    lower = -honours + 2 * kr
    span_tricks = 0
    if p[K.K_MODE] == K.MODE_LINEAR:
        upper += p[K.K_HALFN] * (left - 2 * to)
        lower -= p[K.K_HALFN] * (left - 2 * tr_)
    elif p[K.K_MODE] == K.MODE_COUNTS:
        span_tricks = n * left
        upper += span_tricks
        lower -= span_tricks
    gain = 2 * (kr - pr) + 2 * (ko - po)
    mine = T.side[leader] == root
    keep = kr if mine else ko
    sure_run = run if (tr_ if mine else to) > 0 else np.int64(0)
    hs, q, _pin = K._lead_sure(T.buf, S.buf, leader, t, root, allc, keep, sure_run)
    assert hs >= keep
    gain += 2 * (hs - keep)
    lin = p[K.K_MODE] == K.MODE_LINEAR
    if mine:
        lower += 2 * (hs - kr)
        if lin and q > tr_:
            lower += 2 * p[K.K_HALFN] * (q - tr_)
    else:
        upper -= 2 * (hs - ko)
        if lin and q > to:
            upper -= 2 * p[K.K_HALFN] * (q - to)
    return acc + lower, acc + upper, int(T.side[leader]), gain


def test_honour_bounds_hold_the_exact_value_of_random_endings():
    """Endings of every configuration at a trick start, from the side on lead and from
    the side after it: the exact value (the mover's best, by brute force) lies between the
    bounds; and the new bounds were tighter than the top run alone often enough that the
    check means something."""
    rng = random.Random(2611)
    tighter = checked = 0
    for preset, players, variants, left in SOLVE_CONFIGS:
        for _ in range(12):
            most = min(left, 3 if players >= 4 else 4)
            rec = random_ending(rng, preset, players, variants, rng.randint(2, most))
            rec["play"] = rec["play"][:len(rec["play"]) - len(rec["play"]) % players]
            sides = _tables_of(_deal_of(rec)).side
            to_move = Ending(rec).to_move      # (no brute force needed for who moves)
            for side in {int(sides[to_move]), int(sides[(to_move + 1) % players])}:
                _m, want = brute_values(rec, side)
                lo, hi, leader_side, gain = _bounds(rec, side)
                best = max(want.values()) if leader_side == side else min(want.values())
                assert lo <= best <= hi, (rec, side, lo, best, hi)
                checked += 1
                tighter += gain > 0
    assert checked >= 600
    assert tighter >= 40, tighter
