"""Games to the target: a hand's scoring units as count-out step matrices, resolving a
unit against the target, whole games, and the exact game-equity table by dynamic
programming over the per-deal outcome distribution.

Rules (docs/rules.md §3 ``tie``/``game_at_once``, §7.9-§7.13; the readings of
:mod:`catchten_sim.records`, whose ``score_game`` is the reference these kernels agree with):

- a scoring unit is the hand, or each six-card set with per-set scoring (2/3 players);
  the target is checked after every unit (§7.9); reaching means total >= target;
- ``count_out`` (§7.10): when several sides reach the target in one unit, add the unit's
  points step by step in the order Ten of trumps, 10♦ bonus, card points, Ace, King, Queen,
  Jack of trumps (9 for jaques); the first side to reach the target wins; several at one
  step: fewer points needed before the step, then the higher final total, then the lower
  side number;
- ``higher_total`` (§7.11): the higher total among the sides at or over the target wins;
  equal totals: another unit (scores carried);
- ``replay`` (§3): the first time several sides reach the target together, another unit is
  played (scores carried); after that as ``higher_total``;
- ``game_at_once`` (§7.13): honours count the moment their trick is taken, card points at
  the end of the unit; a side at or over the target after taking a trick wins at once (so
  after a tie has been carried, the next trick won by a side at or over the target wins);
  several sides reaching by the card points at the unit's end: the tie rule, ``count_out``
  meaning fewer points needed, then the higher total, then the lower side (step "cards").

A unit's outcome is a matrix ``steps`` (S, n_sides) of points:

- without ``game_at_once``: row ``j`` = step ``j`` of :data:`catchten_sim.rules.COUNT_OUT_STEPS`
  (S = 8); ``tside`` is unused;
- with ``game_at_once``: rows 0 … S-2 are tricks in the order taken, ``tside[r]`` the side
  that took trick ``r`` (-1: an unused row) and ``steps[r, tside[r]]`` its honours; row S-1
  is the card points. The *compact* form keeps only the unit's first trick and the tricks
  that score honours (exact whenever no side is at or over the target at the unit's start
  with a third side below it, i.e. for two sides or ``count_out``); the full form keeps
  every trick.

Kernels follow the engine's conventions: the entry kernels run without NRT and allocate
nothing; ``inline="always"`` helpers are shared between the game simulator and the DP.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import JIT, KERNEL_JIT, popcount, rng_below_s, rng_seed
from .deal import deal_trumps
from .engine import FRESH, Dealt, Log, Seats, play_deal
from .layout import (N_STEPS, P_N, P_NSETS, P_NSIDES, P_SETSIZE, P_TARGET, P_TIE, STEP_CARDS,
                     TIE_COUNT_OUT, TIE_HIGHER_TOTAL, TIE_REPLAY)
from .policy import all_seats_random
from .scoring import add_steps, honour_points, n_units as n_units_of, unit_card_points
from .spec import spec_of

__all__ = ["N_STEPS", "STEP_CARDS", "TIE_COUNT_OUT", "TIE_HIGHER_TOTAL", "TIE_REPLAY"]

HOW_NONE = 0          # the game goes on
HOW_REACHED = 1
HOW_COUNT_OUT = 2
HOW_HIGHER_TOTAL = 3
HOW_UNFINISHED = 4    # the hand limit was hit (never in practice)

NO_WINNER = -1

#: hands per game at most (hand ``h`` of game ``g`` is deal ``(g * MAX_HANDS + h) * n + dealer``)
MAX_HANDS = 4096
#: salt of the first-dealer stream (``first_dealer = random``)
_DEALER_SALT = np.uint64(0xD1B54A32D192ED03)

# per-game output columns of run_games
G_FIRST_DEALER = 0
G_WINNER = 1
G_HOW = 2
G_STEP = 3
G_HANDS = 4
G_REPLAYS = 5        # ties carried into another unit
G_UNIT = 6           # scoring unit (set, from 0) of the deciding hand
G_RUNNING = 7        # then one column per side: the running totals at the end
N_GCOLS = 7


# ------------------------------------------------------------------------------ units
@njit(inline="always", **JIT)
def game_end(params):
    """The game's target and tie rule (``TIE_*``) from the kernel tables' ``params``: the
    one place the games kernels read them."""
    return params[P_TARGET], params[P_TIE]


@njit(inline="always", **JIT)
def _higher_total(running, flags, target, tie):
    """§7.11 / §3 replay among the sides at or over the target: the winner, or -1 (another
    unit; ``flags[0]`` notes that a tie has been carried)."""
    if tie == TIE_REPLAY and flags[0] == 0:
        flags[0] = 1
        return -1
    best = -1
    best_v = -1
    count = 0
    for s in range(running.shape[0]):
        v = running[s]
        if v >= target:
            if v > best_v:
                best_v = v
                best = s
                count = 1
            elif v == best_v:
                count += 1
    if count == 1:
        return best
    flags[0] = 1
    return -1


@njit(inline="always", **JIT)
def apply_unit(running, cur, flags, steps, tside, target, tie, at_once):
    """Add one scoring unit to the running totals and decide the game.

    Parameters
    ----------
    running : int64 (n_sides,) in/out, the totals before the unit; after it (with
        ``game_at_once`` and a win: the totals at the moment of the win, §7.13).
    cur : int64 (n_sides,) scratch.
    flags : int64 (1,) in/out: ``flags[0]`` = 1 once a tie has been carried (``replay``).
    steps : int (S, n_sides); tside : int (S,) (module docstring).
    target, tie (TIE_*), at_once (bool).

    Returns
    -------
    (winner, how, step): the side that won (-1: none yet), ``HOW_*``, and the count-out
    step index (``how == HOW_COUNT_OUT``; else -1).
    """
    ns = running.shape[0]
    n_rows = steps.shape[0]
    if at_once:
        for r in range(n_rows - 1):
            s = tside[r]
            if s < 0:
                continue
            running[s] += steps[r, s]
            if running[s] >= target:
                return s, HOW_REACHED, -1
        last = n_rows - 1
        best = -1
        n_new = 0
        for s in range(ns):
            cur[s] = running[s]
            running[s] += steps[last, s]
        for s in range(ns):
            if cur[s] < target <= running[s]:
                n_new += 1
                if best < 0:
                    best = s
                else:
                    nb = target - cur[best]
                    ns_ = target - cur[s]
                    if ns_ < nb or (ns_ == nb and running[s] > running[best]):
                        best = s
        if n_new == 1:
            return best, HOW_REACHED, -1
        if n_new > 1 and tie == TIE_COUNT_OUT:
            return best, HOW_COUNT_OUT, STEP_CARDS
        if n_new == 0:
            n_reach = 0
            for s in range(ns):
                if running[s] >= target:
                    n_reach += 1
                    best = s
            if n_reach == 0:
                return NO_WINNER, HOW_NONE, -1
            if n_reach == 1:
                return best, HOW_REACHED, -1
        w = _higher_total(running, flags, target, tie)
        if w >= 0:
            return w, HOW_HIGHER_TOTAL, -1
        return NO_WINNER, HOW_NONE, -1
    n_reach = 0
    best = -1
    for s in range(ns):
        cur[s] = running[s]
        for j in range(n_rows):
            running[s] += steps[j, s]
        if running[s] >= target:
            n_reach += 1
            best = s
    if n_reach == 0:
        return NO_WINNER, HOW_NONE, -1
    if n_reach == 1:
        return best, HOW_REACHED, -1
    if tie == TIE_COUNT_OUT:
        for j in range(n_rows):
            best = -1
            for s in range(ns):
                v = steps[j, s]
                if v != 0 and cur[s] < target <= cur[s] + v:
                    if best < 0:
                        best = s
                    else:
                        nb = target - cur[best]
                        ns_ = target - cur[s]
                        if ns_ < nb or (ns_ == nb and running[s] > running[best]):
                            best = s
            if best >= 0:
                return best, HOW_COUNT_OUT, j
            for s in range(ns):
                cur[s] += steps[j, s]
        return NO_WINNER, HOW_NONE, -1     # not reached: count-out needs no carried tie
    w = _higher_total(running, flags, target, tie)
    if w >= 0:
        return w, HOW_HIGHER_TOTAL, -1
    return NO_WINNER, HOW_NONE, -1


@njit(inline="always", **JIT)
def unit_outcomes(tab, trump, logs, cap_mask, at_once, compact, steps_out, tside_out):
    """A played deal (its trick log ``logs``, capture masks ``cap_mask``) as scoring-unit
    outcomes, scored by :mod:`.scoring`.

    ``steps_out`` int (n_units, S, n_sides) and ``tside_out`` (n_units, S) are filled for
    the deal's units (module docstring); returns the number of units.
    """
    params = tab.params
    n = params[P_N]
    n_sides = params[P_NSIDES]
    nu = n_units_of(params)
    tpu = params[P_NSETS] * params[P_SETSIZE] // nu       # tricks per unit
    log_cards = logs[1]
    log_winner = logs[2]
    n_rows = steps_out.shape[1]
    for u in range(nu):
        for r in range(n_rows):
            tside_out[u, r] = -1
            for sd in range(n_sides):
                steps_out[u, r, sd] = 0
        if not at_once:
            for sd in range(n_sides):
                add_steps(tab, trump, cap_mask[u, sd], steps_out[u, :, sd])
            continue
        r = 0
        for t in range(tpu):
            ti = u * tpu + t
            side = tab.side_of_seat[log_winner[ti]]
            tm = np.int64(0)
            for k in range(n):
                tm |= np.int64(1) << log_cards[ti, k]
            hon = honour_points(tab, trump, tm)
            if not compact or hon != 0 or t == 0:
                steps_out[u, r, side] = hon
                tside_out[u, r] = side
                r += 1
        for sd in range(n_sides):                # the last row: card points (0 when off)
            steps_out[u, n_rows - 1, sd] = unit_card_points(tab, popcount(cap_mask[u, sd]))
    return nu


@njit(**JIT)
def apply_unit_py(running, flags, steps, tside, target, tie, at_once):
    """:func:`apply_unit` for Python callers (tests, ``EquityTable.p_win_after``)."""
    cur = np.zeros(running.shape[0], dtype=np.int64)
    return apply_unit(running, cur, flags, steps, tside, target, tie, at_once)


# ------------------------------------------------------------------------------ playing
@njit(inline="always", **JIT)
def _play_hand(tab, scr, logs, policies, all_random, seed, stream, dealer):
    """Deal number ``stream`` of ``seed`` with the given dealer, played out with the log."""
    sp = spec_of(tab)
    s = rng_seed(seed, stream)
    trump, turnup, dead, s = deal_trumps(tab, sp, dealer, s, scr.set_hands, scr.owner)
    log = Log(True, logs[0], logs[1], logs[2])
    if all_random:
        ten_taker, s = play_deal(tab, sp, scr, Dealt(dealer, trump, turnup),
                                 Seats(policies, scr.spos, True), s, log, FRESH)
    else:
        ten_taker, s = play_deal(tab, sp, scr, Dealt(dealer, trump, turnup),
                                 Seats(policies, scr.spos, False), s, log, FRESH)
    return trump


@njit(**KERNEL_JIT)
def run_games(tab, scr, gscr, policies, seed, first_game, count, gcfg, out):
    """Play ``count`` whole games numbered ``first_game, …`` (docs/rules.md §1, §3, §7.9-13).

    Game ``g``'s first dealer is ``g % n`` (``dealer_mode`` 0), drawn from a stream keyed
    by ``(seed, g)`` (1), or ``fixed_dealer`` (2); the deal passes left. Hand ``h`` of game
    ``g`` with dealer ``d`` is deal number ``(g * MAX_HANDS + h) * n + d`` of ``seed`` (as
    :func:`catchten_sim.play.deal` deals it, and played on from its stream), so results
    depend on the seed only. Games start from ``start_scores`` (n_sides,).

    Parameters
    ----------
    tab : :data:`catchten_sim.rules.Tables`; scr : :data:`engine.Scratch`;
    gscr : (running (n_sides,), cur (n_sides,), flags (1,), steps (U, S, n_sides),
        tside (U, S), (log_leader, log_cards, log_winner)).
    gcfg : (dealer_mode, fixed_dealer, at_once, compact, start_scores).
    out : int64 (count, N_GCOLS + n_sides), one row per game (``G_*`` columns).
    """
    params = tab.params
    n = params[P_N]
    n_sides = params[P_NSIDES]
    target, tie = game_end(params)
    dealer_mode, fixed_dealer, at_once, compact, start_scores = gcfg
    running, cur, flags, steps, tside, logs = gscr
    all_random = all_seats_random(policies)
    for i in range(count):
        g = first_game + i
        if dealer_mode == 0:
            dealer = g % n
        elif dealer_mode == 1:
            s0 = rng_seed(seed ^ _DEALER_SALT, g)
            s0, dealer = rng_below_s(s0, n)
        else:
            dealer = fixed_dealer
        first = dealer
        for sd in range(n_sides):
            running[sd] = start_scores[sd]
        flags[0] = 0
        winner = -1
        how = HOW_UNFINISHED
        step = -1
        replays = 0
        unit_won = -1
        h = 0
        while h < MAX_HANDS:
            stream = (g * MAX_HANDS + h) * n + dealer
            trump = _play_hand(tab, scr, logs, policies, all_random, seed, stream, dealer)
            n_units = unit_outcomes(tab, trump, logs, scr.cap, at_once, compact, steps,
                                    tside)
            h += 1
            for u in range(n_units):
                w, hw, st = apply_unit(running, cur, flags, steps[u], tside[u], target,
                                       tie, at_once)
                if w < 0:
                    for sd in range(n_sides):
                        if running[sd] >= target:
                            replays += 1       # a tie carried into another unit
                            break
                if w >= 0:
                    winner = w
                    how = hw
                    step = st
                    unit_won = u
                    break
            if winner >= 0:
                break
            dealer = dealer + 1 if dealer + 1 < n else 0
        out[i, G_FIRST_DEALER] = first
        out[i, G_WINNER] = winner
        out[i, G_HOW] = how
        out[i, G_STEP] = step
        out[i, G_HANDS] = h
        out[i, G_REPLAYS] = replays
        out[i, G_UNIT] = unit_won
        for sd in range(n_sides):
            out[i, N_GCOLS + sd] = running[sd]


@njit(**KERNEL_JIT)
def run_unit_samples(tab, scr, gscr, policies, seed, start, count, mode, dst):
    """Deal and play ``count`` deals numbered ``start, …`` (dealer ``i % n``, stream
    ``(seed, i)``: the deals of :func:`catchten_sim.simulate.simulate`) and write each
    deal's units into ``dst = (steps_out, tside_out)``: ``steps_out`` int8 (count, U, S,
    n_sides), ``tside_out`` int8 (count, U, S). ``mode`` = (at_once, compact)."""
    n = tab.params[P_N]
    at_once, compact = mode
    steps_out, tside_out = dst
    running, cur, flags, steps, tside, logs = gscr
    all_random = all_seats_random(policies)
    n_units = steps.shape[0]
    n_rows = steps.shape[1]
    n_sides = steps.shape[2]
    for i in range(count):
        d = start + i
        dealer = d % n
        trump = _play_hand(tab, scr, logs, policies, all_random, seed, d, dealer)
        unit_outcomes(tab, trump, logs, scr.cap, at_once, compact, steps, tside)
        for u in range(n_units):
            for r in range(n_rows):
                tside_out[i, u, r] = tside[u, r]
                for sd in range(n_sides):
                    steps_out[i, u, r, sd] = steps[u, r, sd]


# ------------------------------------------------------------------------------ the DP
@njit(**JIT)
def _solve_cycle(a, z, nxt, out):
    """Solve ``V[d] = a[d] + z[d] * V[nxt[d]]`` over the classes (``nxt`` a permutation
    made of cycles); ``out`` (D,). A cycle that never leaves (z = 1 all round) gets its
    first-pass value."""
    d_n = a.shape[0]
    for d in range(d_n):
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
def tie_values(delta, prob, nxt, dmax):
    """Two sides, a tie carried (both at or over the target, ``tie`` higher_total or
    replay, without ``game_at_once``): ``W[c, d + dmax]`` = P(side 0 wins | side 0 leads by
    ``d`` points, the next deal of class ``c``). Every unit, the higher total wins; equal
    totals: another unit.

    ``delta`` int64 (K, U): side 0's minus side 1's points per unit of each outcome;
    ``prob`` (C, K).
    """
    c_n = prob.shape[0]
    k_n = delta.shape[0]
    u_n = delta.shape[1]
    a = np.zeros(c_n)
    z = np.zeros(c_n)
    for c in range(c_n):
        for k in range(k_n):
            p = prob[c, k]
            if p == 0.0:
                continue
            d = 0
            done = False
            for u in range(u_n):
                d += delta[k, u]
                if d != 0:
                    done = True
                    if d > 0:
                        a[c] += p
                    break
            if not done:
                z[c] += p
    w0 = np.zeros(c_n)
    _solve_cycle(a, z, nxt, w0)
    W = np.zeros((c_n, 2 * dmax + 1))
    for c in range(c_n):
        for di in range(2 * dmax + 1):
            acc = 0.0
            for k in range(k_n):
                p = prob[c, k]
                if p == 0.0:
                    continue
                d = di - dmax
                for u in range(u_n):
                    d += delta[k, u]
                    if d != 0:
                        break
                if d > 0:
                    acc += p
                elif d == 0:
                    acc += p * w0[nxt[c]]
            W[c, di] = acc
    return W


@njit(inline="always", **JIT)
def _resolve_leaf(running, cur, flags, steps_k, tside_k, target, tie, at_once):
    """Play a deal's units from ``running`` (flags[0] = 0 on entry): the winner, or -1
    with ``running`` the totals after the deal (``flags[0]`` = 1 if a tie is carried)."""
    for u in range(steps_k.shape[0]):
        w, hw, st = apply_unit(running, cur, flags, steps_k[u], tside_k[u], target, tie,
                               at_once)
        if w >= 0:
            return w
    return -1


@njit(**JIT)
def equity_two_sides(out, nxt, end, F, W, dmax):
    """P(side 0 wins the game) before a deal of class ``c`` at scores ``(a, b)`` below the
    target, exactly, for the outcome distribution given.

    Parameters
    ----------
    steps : int (K, U, S, 2), tside : int (K, U, S): the distinct deal outcomes.
    g_ptr : int64 (C+1,): class ``c``'s outcome groups are ``g_ptr[c] … g_ptr[c+1]-1``; a
        group is the outcomes with the same deal totals ``g_tau[g]`` (2,), probability
        ``g_p[g]``; its outcomes ``l_idx[l_ptr[g] … l_ptr[g+1]-1]`` with probabilities
        ``l_p`` (within the class).
    nxt : int64 (C,) the class of the next deal. F : (C,) P(side 0 takes the first trick
        of a deal of the class) (``game_at_once``, a carried tie); W : (C, 2 dmax + 1)
        :func:`tie_values` (a carried tie otherwise).

    Returns
    -------
    float64 (C, target, target)

    Only the outcomes by which both sides reach the target are resolved one by one; when
    one side alone reaches it in the deal, it wins whatever the order (scores only grow),
    and when none does only the totals matter.
    """
    steps, tside, g_ptr, g_tau, g_p, l_ptr, l_idx, l_p = out
    target, tie, at_once = end
    c_n = nxt.shape[0]
    V = np.zeros((c_n, target, target))
    running = np.zeros(2, dtype=np.int64)
    cur = np.zeros(2, dtype=np.int64)
    flags = np.zeros(1, dtype=np.int64)
    a = np.zeros(c_n)
    z = np.zeros(c_n)
    tmp = np.zeros(c_n)
    for total in range(2 * (target - 1), -1, -1):
        lo = max(0, total - (target - 1))
        hi = min(total, target - 1)
        for s0 in range(lo, hi + 1):
            s1 = total - s0
            for c in range(c_n):
                acc = 0.0
                zero = 0.0
                cn = nxt[c]
                for g in range(g_ptr[c], g_ptr[c + 1]):
                    t0 = s0 + g_tau[g, 0]
                    t1 = s1 + g_tau[g, 1]
                    if t0 < target:
                        if t1 < target:
                            if t0 == s0 and t1 == s1:
                                zero += g_p[g]
                            else:
                                acc += g_p[g] * V[cn, t0, t1]
                        continue
                    if t1 < target:
                        acc += g_p[g]
                        continue
                    for li in range(l_ptr[g], l_ptr[g + 1]):
                        k = l_idx[li]
                        running[0] = s0
                        running[1] = s1
                        flags[0] = 0
                        w = _resolve_leaf(running, cur, flags, steps[k], tside[k], target,
                                          tie, at_once)
                        if w == 0:
                            acc += l_p[li]
                        elif w < 0:
                            if at_once:
                                acc += l_p[li] * F[cn]
                            else:
                                d = running[0] - running[1]
                                d = min(max(d, -dmax), dmax)
                                acc += l_p[li] * W[cn, d + dmax]
                a[c] = acc
                z[c] = zero
            _solve_cycle(a, z, nxt, tmp)
            for c in range(c_n):
                V[c, s0, s1] = tmp[c]
    return V


@njit(**JIT)
def equity_three_sides(out, nxt, end):
    """Each side's P(win) before a deal of class ``c`` at scores ``(a, b, e)`` below the
    target, three sides, ``tie = count_out`` (arguments as :func:`equity_two_sides`).

    Returns float64 (C, target, target, target, 3).
    """
    steps, tside, g_ptr, g_tau, g_p, l_ptr, l_idx, l_p = out
    target, _, at_once = end
    c_n = nxt.shape[0]
    V = np.zeros((c_n, target, target, target, 3))
    running = np.zeros(3, dtype=np.int64)
    cur = np.zeros(3, dtype=np.int64)
    flags = np.zeros(1, dtype=np.int64)
    a = np.zeros((3, c_n))
    z = np.zeros(c_n)
    tmp = np.zeros(c_n)
    t_max = target - 1
    for total in range(3 * t_max, -1, -1):
        for s0 in range(max(0, total - 2 * t_max), min(total, t_max) + 1):
            for s1 in range(max(0, total - s0 - t_max), min(total - s0, t_max) + 1):
                s2 = total - s0 - s1
                for c in range(c_n):
                    a[0, c] = 0.0
                    a[1, c] = 0.0
                    a[2, c] = 0.0
                    z[c] = 0.0
                    cn = nxt[c]
                    for g in range(g_ptr[c], g_ptr[c + 1]):
                        t0 = s0 + g_tau[g, 0]
                        t1 = s1 + g_tau[g, 1]
                        t2 = s2 + g_tau[g, 2]
                        nr = (t0 >= target) + (t1 >= target) + (t2 >= target)
                        p = g_p[g]
                        if nr == 0:
                            if t0 == s0 and t1 == s1 and t2 == s2:
                                z[c] += p
                            else:
                                for q in range(3):
                                    a[q, c] += p * V[cn, t0, t1, t2, q]
                        elif nr == 1:
                            q = 0 if t0 >= target else (1 if t1 >= target else 2)
                            a[q, c] += p
                        else:
                            for li in range(l_ptr[g], l_ptr[g + 1]):
                                k = l_idx[li]
                                running[0] = s0
                                running[1] = s1
                                running[2] = s2
                                flags[0] = 0
                                w = _resolve_leaf(running, cur, flags, steps[k], tside[k],
                                                  target, TIE_COUNT_OUT, at_once)
                                if w >= 0:
                                    a[w, c] += l_p[li]
                for q in range(3):
                    _solve_cycle(a[q], z, nxt, tmp)
                    for c in range(c_n):
                        V[c, s0, s1, s2, q] = tmp[c]
    return V


@njit(**JIT)
def resolve_from_flags(scores, flags0, unit0, steps, tside, idx, end, code, after):
    """Play units ``unit0 …`` of the outcomes ``idx`` from ``scores`` (``flags0`` = 1: a
    tie carried in):
    ``code[i]`` = the winner, -1 (game goes on from ``after[i]``) or -2 (a tie carried,
    totals ``after[i]``)."""
    target, tie, at_once = end
    ns = scores.shape[0]
    running = np.zeros(ns, dtype=np.int64)
    cur = np.zeros(ns, dtype=np.int64)
    flags = np.zeros(1, dtype=np.int64)
    for i in range(idx.shape[0]):
        k = idx[i]
        for s in range(ns):
            running[s] = scores[s]
        flags[0] = flags0
        w = -1
        for u in range(unit0, steps.shape[1]):
            w, hw, st = apply_unit(running, cur, flags, steps[k, u], tside[k, u], target,
                                   tie, at_once)
            if w >= 0:
                break
        code[i] = w if w >= 0 else (-2 if flags[0] != 0 else -1)
        for s in range(ns):
            after[i, s] = running[s]
