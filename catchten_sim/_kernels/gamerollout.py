"""Game rollouts: P(each side wins the game | the scores, the dealer) estimated by playing
the rest of the game from a state with the engine, at any number of sides.

A *state* row is ``(score_0 … score_{k-1}, dealer, tie_carried, game_offset)``: the
sides' scores before the next deal, the seat that deals it, 1 when a tie is carried into
it (``tie`` higher_total or replay), and an offset added to the game number. Game ``g``
from a state plays hands ``h = 0, 1, …`` dealt by ``dealer, dealer + 1, …`` (the deal
passes left), hand ``h`` dealt by ``d`` being deal number ``(g * MAX_HANDS + h) * n + d``
of the seed: exactly the deals of :func:`.games.run_games` (so a rollout from a state is
the game ``simulate_games(first_dealer=dealer, start_scores=scores)`` plays with the same
seed and game number), and the same deals for every state with the same dealer and game
number: common random numbers across the states of one call (and, in ``advise``, across
the candidate cards of one determinization, whose rows share the game offset).

Scoring units, the target, count-out and the tie rules are :func:`.games.apply_unit`'s
(docs/rules.md §3, §7.9-§7.13).
"""
from __future__ import annotations

from numba import njit

from .bits import JIT, KERNEL_JIT
from .games import MAX_HANDS, _play_hand, apply_unit, game_end, unit_outcomes
from .layout import N_STEPS, P_N, P_NSIDES
from .policy import all_seats_random

__all__ = ["rollout_after_unit", "rollout_states"]


@njit(inline="always", **JIT)
def _game_from(tab, scr, gscr, policies, all_random, seed, g, dealer, mode):
    """Play game ``g`` on from ``gscr``'s running totals and tie flag (set by the caller),
    the next deal dealt by ``dealer``: the winner, or -1 (the hand limit)."""
    params = tab.params
    n = params[P_N]
    target, tie = game_end(params)
    at_once, compact = mode
    running, cur, flags, steps, tside, logs = gscr
    h = 0
    while h < MAX_HANDS:
        stream = (g * MAX_HANDS + h) * n + dealer
        trump = _play_hand(tab, scr, logs, policies, all_random, seed, stream, dealer)
        n_units = unit_outcomes(tab, trump, logs, scr.cap, at_once, compact, steps, tside)
        h += 1
        for u in range(n_units):
            w, hw, st = apply_unit(running, cur, flags, steps[u], tside[u], target, tie,
                                   at_once)
            if w >= 0:
                return w
        dealer = dealer + 1 if dealer + 1 < n else 0
    return -1


@njit(**KERNEL_JIT)
def rollout_states(tab, scr, gscr, policies, seed, states, games, mode, wins):
    """Play ``count`` games from every state row and add each side's wins.

    Parameters
    ----------
    tab : :data:`catchten_sim.rules.Tables`; scr : :data:`engine.Scratch`;
    gscr : the games scratch of :func:`.games.run_games`.
    policies : int64 (n,) kernel policy ids; seed : uint64.
    states : int64 (m, n_sides + 3), rows as in the module docstring.
    games : (first, count): game numbers ``first + offset … first + offset + count - 1``.
    mode : (at_once, compact).
    wins : int64 (m, n_sides + 1) in/out: games won by each side, then games unfinished
        (the hand limit, never in practice).
    """
    params = tab.params
    n_sides = params[P_NSIDES]
    first, count = games
    running, cur, flags, steps, tside, logs = gscr
    all_random = all_seats_random(policies)
    for j in range(count):
        for i in range(states.shape[0]):
            for sd in range(n_sides):
                running[sd] = states[i, sd]
            flags[0] = states[i, n_sides + 1]
            winner = _game_from(tab, scr, gscr, policies, all_random, seed,
                                first + j + states[i, n_sides + 2], states[i, n_sides], mode)
            if winner >= 0:
                wins[i, winner] += 1
            else:
                wins[i, n_sides] += 1


@njit(**KERNEL_JIT)
def rollout_after_unit(tab, scr, gscr, policies, seed, job, rows, out):
    """P(win) after a deal's last scoring unit, for ``advise``: each row's unit applied to
    the scores before it, then, when the game goes on, ``k_games`` games played on.

    Parameters
    ----------
    job : (before int64 (n_sides,) the scores before the unit, after int64 (n_sides,)
        scratch, next_dealer, base (the column of side 0's count-out steps in a row),
        first_sample, k_games).
    rows : int16 (m, c, cols): the deal rollouts' outcome rows of ``m`` determinizations
        (numbered ``first_sample …``) and ``c`` candidates (``_kernels.rollout``); without
        ``game_at_once``.
    out : float64 (m, c, n_sides): each side's share of the games (1 for the winner of a
        game decided by the unit). The games of determinization ``i`` are numbered
        ``(first_sample + i) * k_games …``: the same for every candidate (common random
        numbers), distinct between determinizations.
    """
    params = tab.params
    n_sides = params[P_NSIDES]
    target, tie = game_end(params)
    before, after, next_dealer, base, first_sample, k_games = job
    running, cur, flags, steps, tside, logs = gscr
    all_random = all_seats_random(policies)
    mode = (False, True)
    u_steps = steps[0]
    u_tside = tside[0]
    for i in range(rows.shape[0]):
        for c in range(rows.shape[1]):
            for sd in range(n_sides):
                out[i, c, sd] = 0.0
            for r in range(u_steps.shape[0]):
                u_tside[r] = -1
                for sd in range(n_sides):
                    u_steps[r, sd] = rows[i, c, base + sd * N_STEPS + r] if r < N_STEPS else 0
            for sd in range(n_sides):
                running[sd] = before[sd]
            flags[0] = 0
            w, hw, st = apply_unit(running, cur, flags, u_steps, u_tside, target, tie, False)
            if w >= 0:
                out[i, c, w] = 1.0
                continue
            for sd in range(n_sides):
                after[sd] = running[sd]
            tied = flags[0]
            won = 0
            for j in range(k_games):
                for sd in range(n_sides):
                    running[sd] = after[sd]
                flags[0] = tied
                w = _game_from(tab, scr, gscr, policies, all_random, seed,
                               (first_sample + i) * k_games + j, next_dealer, mode)
                if w >= 0:
                    out[i, c, w] += 1.0
                    won += 1
            for sd in range(n_sides):
                out[i, c, sd] /= max(won, 1)
