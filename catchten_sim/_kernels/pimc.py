"""Deals with ``pimc`` seats: the kernel side of :mod:`catchten_sim.pimc`.

A ``pimc`` decision samples determinizations and solves them double-dummy; that is driven
from Python at the decision level (the sampler's set-up and the position's checks are
Python), so inside the play loop a ``pimc`` seat is a ``POL_SCRIPTED`` seat whose choices
(``legal[script[i] % n_legal]``, legal ascending) the driver has already made. This kernel
deals deal ``deal_index`` of a simulation exactly as :func:`.engine.run_chunk` does (RNG
stream ``(seed, deal_index)``, dealer ``deal_index % n``), plays it with those scripts and
the other seats' policies, logs the play, and scores it into an outcome row and the flat
accumulator as ``run_chunk`` does. The scripted seats draw nothing from the random stream,
so a ``random`` seat plays the same cards in every replay of the deal.
"""
from __future__ import annotations

from collections import namedtuple

from numba import njit

from .bits import KERNEL_JIT, rng_seed
from .deal import deal_trumps
from .engine import (FRESH, Dealt, Log, Seats, fold_deal, fold_flush, outcome_row, play_deal,
                     side_sums)
from .spec import S_N, spec_of

#: what :func:`scripted_deal` fills: ``logs`` ``(leader (tricks,), cards (tricks, n),
#: winner (tricks,))`` int64; ``row`` int16 (N_FIXED + n * N_PER_POS,) the outcome row,
#: filled when not empty; ``acc``, ``off`` the flat accumulator and its offsets
#: (:func:`.engine.run_chunk`), folded into when ``acc`` is not empty
ScriptedOut = namedtuple("ScriptedOut", ["logs", "row", "acc", "off"])


@njit(**KERNEL_JIT)
def scripted_deal(tab, scr, policies, seed, deal_index, script, outs):
    """Deal and play one deal of a simulation with scripted seats.

    Parameters
    ----------
    tab : :data:`catchten_sim.rules.Tables`; scr : :data:`.engine.Scratch`.
    policies : int64 (n,) policy id per seat (``POL_SCRIPTED`` for the driver's seats).
    seed : uint64; deal_index : int64 (the deal's number in the simulation).
    script : int64 (>= cards dealt,) the scripted seats' choices in play order.
    outs : :data:`ScriptedOut` (the play's log, the outcome row, the accumulator).

    Returns
    -------
    int
        The script entries used (the scripted seats' plays).
    """
    logs, row, acc, off = outs.logs, outs.row, outs.acc, outs.off
    sp = spec_of(tab)
    n = sp[S_N]
    s = rng_seed(seed, deal_index)
    dealer = deal_index % n
    trump, turnup, _dead, s = deal_trumps(tab, sp, dealer, s, scr.set_hands, scr.owner)
    scr.spos[0] = 0
    ten_taker, s = play_deal(tab, sp, scr, Dealt(dealer, trump, turnup),
                             Seats(policies, script, False), s,
                             Log(True, logs[0], logs[1], logs[2]), FRESH)
    holder = side_sums(tab, sp, scr, trump)
    if acc.shape[0] > 0:
        fold_deal(tab, sp, scr, dealer, trump, ten_taker, holder, acc, off)
        # fold_deal keeps per-(dealer, side) sums in scratch: spread them to the positions
        # now (run_chunk does it once per call; one pimc deal is one call here)
        fold_flush(tab, sp, scr, acc, off)
    if row.shape[0] > 0:
        outcome_row(tab, sp, scr, dealer, trump, ten_taker, holder, row)
    return scr.spos[0]
