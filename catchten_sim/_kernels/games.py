"""Games to the target: resolving a scoring unit's points against the target, and the
exact game-equity table by dynamic programming over the per-unit outcome distribution.

A unit's outcome is a small matrix ``steps`` (S, n_sides) of points, in the order they
count: the count-out order of RULES.md §7.10 (Ten of trumps, 10♦ bonus, card points,
Ace, King, Queen, Jack of trumps, 9 for jaques), or with ``game_at_once`` the order the
tricks were taken in, card points last (§7.13).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import JIT

TIE_COUNT_OUT = 0
TIE_HIGHER_TOTAL = 1

NO_WINNER = -1
TIED_ABOVE = -2     # higher_total: several sides at or over the target with equal totals


@njit(**JIT)
def resolve_unit(before, steps, target, tie, after):
    """Add one unit's points to ``before`` (n_sides,), writing ``after``.

    Returns ``(winner, step)``: the side that won the game and the step of ``steps`` at
    which it did (count-out), or ``(NO_WINNER, -1)``, or ``(TIED_ABOVE, -1)`` under
    ``higher_total`` when the highest sides at or over the target are equal (§7.11).
    Several sides passing the target at the same step (§7.10): the one that needed fewer
    points before the step, then the higher final total, then the lower side number.
    """
    ns = before.shape[0]
    n_steps = steps.shape[0]
    for s in range(ns):
        after[s] = before[s]
        for j in range(n_steps):
            after[s] += steps[j, s]
    if tie == TIE_HIGHER_TOTAL:
        best = -1
        best_v = -1
        count = 0
        for s in range(ns):
            if after[s] >= target:
                if after[s] > best_v:
                    best_v = after[s]
                    best = s
                    count = 1
                elif after[s] == best_v:
                    count += 1
        if best < 0:
            return NO_WINNER, -1
        if count > 1:
            return TIED_ABOVE, -1
        return best, -1
    # count-out: step by step
    cur = before.copy()
    for j in range(n_steps):
        winner = -1
        for s in range(ns):
            if steps[j, s] == 0:
                continue
            if cur[s] < target <= cur[s] + steps[j, s]:
                if winner < 0:
                    winner = s
                else:
                    need_w = target - cur[winner]
                    need_s = target - cur[s]
                    if need_s < need_w or (need_s == need_w and after[s] > after[winner]):
                        winner = s
        if winner >= 0:
            return winner, j
        for s in range(ns):
            cur[s] += steps[j, s]
    return NO_WINNER, -1


@njit(**JIT)
def _solve_cycle(a, z, nxt, out):
    """Solve ``V[d] = a[d] + z[d] * V[nxt[d]]`` over the classes (nxt is a permutation
    made of cycles); ``out`` (D,)."""
    d_n = a.shape[0]
    for d in range(d_n):
        # walk the cycle from d
        num = 0.0
        mult = 1.0
        c = d
        while True:
            num += mult * a[c]
            mult *= z[c]
            c = nxt[c]
            if c == d:
                break
        den = 1.0 - mult
        out[d] = num / den if den > 1e-15 else num


@njit(**JIT)
def equity_two_sides(steps, prob, target, tie, nxt):
    """P(side 0 wins the game) for every score pair below the target and unit class.

    Parameters
    ----------
    steps : int64 (K, S, 2) distinct unit outcomes (points per step per side)
    prob : float64 (D, K) probability of each outcome in each unit class (who deals, and
        with sets which set)
    target : int
    tie : TIE_COUNT_OUT or TIE_HIGHER_TOTAL
    nxt : int64 (D,) the class of the next unit

    Returns
    -------
    float64 (D, target, target): ``V[d, a, b]`` = P(side 0 wins | scores a, b before a unit
    of class d); side 1 wins with probability 1 - V (every game ends, RULES.md §7.10-11).
    """
    d_n = prob.shape[0]
    k_n = steps.shape[0]
    V = np.zeros((d_n, target, target), dtype=np.float64)
    before = np.zeros(2, dtype=np.int64)
    after = np.zeros(2, dtype=np.int64)
    # higher_total with equal totals at or over the target: the next unit's higher total
    # wins, equal again means another unit
    vtie = np.zeros(d_n, dtype=np.float64)
    a = np.zeros(d_n, dtype=np.float64)
    z = np.zeros(d_n, dtype=np.float64)
    for d in range(d_n):
        a[d] = 0.0
        z[d] = 0.0
        for k in range(k_n):
            p = prob[d, k]
            if p == 0.0:
                continue
            t0 = 0
            t1 = 0
            for j in range(steps.shape[1]):
                t0 += steps[k, j, 0]
                t1 += steps[k, j, 1]
            if t0 > t1:
                a[d] += p
            elif t0 == t1:
                z[d] += p
    _solve_cycle(a, z, nxt, vtie)
    for total in range(2 * (target - 1), -1, -1):
        lo = total - (target - 1)
        if lo < 0:
            lo = 0
        hi = total if total < target - 1 else target - 1
        for s0 in range(lo, hi + 1):
            s1 = total - s0
            before[0] = s0
            before[1] = s1
            for d in range(d_n):
                acc = 0.0
                zero = 0.0
                for k in range(k_n):
                    p = prob[d, k]
                    if p == 0.0:
                        continue
                    w, _ = resolve_unit(before, steps[k], target, tie, after)
                    if w == 0:
                        acc += p
                    elif w == 1:
                        pass
                    elif w == TIED_ABOVE:
                        acc += p * vtie[nxt[d]]
                    elif after[0] == s0 and after[1] == s1:
                        zero += p
                    else:
                        acc += p * V[nxt[d], after[0], after[1]]
                a[d] = acc
                z[d] = zero
            tmp = np.zeros(d_n, dtype=np.float64)
            _solve_cycle(a, z, nxt, tmp)
            for d in range(d_n):
                V[d, s0, s1] = tmp[d]
    return V


@njit(**JIT)
def equity_many_sides(steps, prob, target, nxt):
    """Each side's P(win) for 3 sides (count-out rules), every score triple below the
    target and unit class: float64 (D, target, target, target, 3)."""
    d_n = prob.shape[0]
    k_n = steps.shape[0]
    V = np.zeros((d_n, target, target, target, 3), dtype=np.float64)
    before = np.zeros(3, dtype=np.int64)
    after = np.zeros(3, dtype=np.int64)
    a = np.zeros((3, d_n), dtype=np.float64)
    z = np.zeros(d_n, dtype=np.float64)
    tmp = np.zeros(d_n, dtype=np.float64)
    for total in range(3 * (target - 1), -1, -1):
        for s0 in range(target):
            for s1 in range(target):
                s2 = total - s0 - s1
                if s2 < 0 or s2 >= target:
                    continue
                before[0] = s0
                before[1] = s1
                before[2] = s2
                for d in range(d_n):
                    for q in range(3):
                        a[q, d] = 0.0
                    z[d] = 0.0
                    for k in range(k_n):
                        p = prob[d, k]
                        if p == 0.0:
                            continue
                        w, _ = resolve_unit(before, steps[k], target, TIE_COUNT_OUT, after)
                        if w >= 0:
                            a[w, d] += p
                        elif after[0] == s0 and after[1] == s1 and after[2] == s2:
                            z[d] += p
                        else:
                            for q in range(3):
                                a[q, d] += p * V[nxt[d], after[0], after[1], after[2], q]
                for q in range(3):
                    _solve_cycle(a[q], z, nxt, tmp)
                    for d in range(d_n):
                        V[d, s0, s1, s2, q] = tmp[d]
    return V
