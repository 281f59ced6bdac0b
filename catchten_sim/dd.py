"""The double-dummy evaluator of ``advise``: every legal card valued by perfect play.

A determinization (a full deal consistent with what the player to move knows, from
:class:`catchten_sim.determinize.Sampler`) is solved double-dummy by the solver's batch
entry (:func:`catchten_sim._kernels.solve.solve_batch`, all cards of the player to move
valued in one call per deal, sharing one transposition table): the value of a card is the
final hand score difference for the whole deal, the mover's side total minus the other
sides' totals added together, when every player plays best with every hand visible
(RULES.md §2, §7.1, §7.2; three or more sides: the paranoid reduction, the mover's side
against the others together). Averaged over determinizations this is Perfect Information
Monte Carlo (PIMC).

What it assumes: after the card, everyone plays perfectly *and sees every hand*; so it
overrates plays that need a guess to be made right (the "strategy fusion" of PIMC), while
heuristic rollouts (``rollout``) assume the club player of :mod:`catchten_sim.policies`.
"""
from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import runner
from ._kernels import solve as _k
from .position import InfoSet
from .solve import Solver, solver_tables

__all__ = ["DD_MEASURES", "DoubleDummyEvaluator", "dealt_hands"]

#: the measures a double-dummy solve gives (the value only: no line is played out)
DD_MEASURES = ("diff",)


def play_of(info: InfoSet) -> list[int]:
    """The cards played so far this hand, in order (completed tricks, then the current
    trick)."""
    done = [c for tr in info.state.tricks for c in tr.cards] if info.state is not None else []
    return done + [c for _, c in info.trick]


def played_masks(info: InfoSet) -> np.ndarray:
    """int64 (n_sets, players): the cards each seat has played in each set (masks)."""
    r = info.rules
    n = r.players
    out = np.zeros((r.n_sets, n), dtype=np.int64)
    play = play_of(info)
    per_set = r.set_size * n
    for i, c in enumerate(play):
        st = i // per_set
        for s in range(n):
            if info.played_by[s] >> c & 1:
                out[st, s] |= 1 << c
                break
    return out


def dealt_hands(info: InfoSet, hands: np.ndarray) -> np.ndarray:
    """The deals as dealt: ``hands`` (m, n_sets, n), the cards each seat holds now and in
    later sets (:meth:`Sampler.full_hands`), plus the cards each seat has played, set by
    set. int64 (m, n_sets, n)."""
    return hands | played_masks(info)[None]


class DoubleDummyEvaluator:
    """Values every candidate card of ``info``'s player to move on each determinization.

    ``measures(hands, first)`` returns ``{"diff": float64 (m, n_cand)}``: the double-dummy
    value of each candidate on each deal (for the mover's side; with two sides it is our
    points minus theirs). A batch of deals is one chunk on the run engine's executor
    (:mod:`catchten_sim.runner`), split over its threads; each thread's work area is a
    :class:`~catchten_sim.solve.Solver` (its own transposition table), kept by the
    executor across batches. The values do not depend on the split.

    Parameters
    ----------
    info : InfoSet
    candidates : the legal cards to value (card indices)
    threads : solver threads (an executor of its own, closed by :meth:`close`).
    tt_bits : log2 of each thread's transposition-table entries.
    executor : a run-engine executor to use instead (``runner.make_executor(threads)``;
        not closed here): its solvers are kept across evaluators (a ``pimc`` player's
        decisions). ``threads`` is then the executor's.
    """

    name = "dd"
    names = DD_MEASURES

    def __init__(self, info: InfoSet, candidates: Sequence[int], *, seed: int = 1,
                 threads: int = 1, tt_bits: int = 17, executor: Any = None) -> None:
        r = info.rules
        self.info = info
        self.candidates = np.array(list(candidates), dtype=np.int64)
        turnup = -1 if info.turnup is None else int(info.turnup)
        self.tables = solver_tables(r, int(info.trump), turnup, int(info.dealer))
        self.play = play_of(info)
        self._played = played_masks(info)
        self._own = executor is None
        self._executor = runner.make_executor(max(1, int(threads))) if executor is None \
            else executor
        self.threads = self._executor.threads
        self._task = _SolveBatch(tt_bits)
        self.nodes = 0

    def close(self) -> None:
        if self._own and self._executor is not None:
            self._executor.close()
        self._executor = None

    def solve(self, hands: np.ndarray) -> np.ndarray:
        """int64 (m, 53): every legal card's value at its index (``INF`` elsewhere), the
        best value at 52, for the deals ``hands`` (cards held now and in later sets)."""
        deals = np.ascontiguousarray(hands | self._played[None], dtype=np.int64)
        out = np.empty((deals.shape[0], 53), dtype=np.int64)
        self._task.solve(self._executor, self.tables, deals, self.play, out)
        return out

    def measures(self, hands: np.ndarray, first: int) -> dict[str, np.ndarray]:
        vals = self.solve(hands)[:, self.candidates]
        if (vals >= _k.INF).any():          # pragma: no cover - a solver/legality mismatch
            raise RuntimeError("the solver found a candidate card illegal")
        return {"diff": vals.astype(np.float64)}


class _SolveBatch:
    """A batch of deals solved double-dummy, as a run-engine task: deals ``first …
    first+count-1`` of the batch, each thread with its own :class:`Solver` (the work
    area, kept by the executor under :attr:`key`: the same ``tt_bits``, the same
    solvers, whichever position is solved)."""

    def __init__(self, tt_bits: int) -> None:
        self.tt_bits = int(tt_bits)
        self._failed = False
        self.key = f"dd-solver-{self.tt_bits}"
        self._batch: Any = None

    def scratch(self) -> Solver:
        return Solver(self.tt_bits)

    def solve(self, executor: Any, tables: Any, deals: np.ndarray, play: list[int],
              out: np.ndarray) -> None:
        """Solve ``deals`` after ``play`` into ``out`` (int64 (m, 53))."""
        m = deals.shape[0]
        self._batch = (tables, deals, play, out, itertools.count())
        self._failed = False
        try:
            runner.run_batch(executor, self, m)
        finally:
            self._batch = None

    def run(self, first: int, count: int, solver: Solver) -> None:
        """Solve the batch's deals one at a time, taking the next deal not yet taken until
        none is left (the slice ``first, count`` the executor gives each thread is only a
        share of the work, not which deals): solve times are heavy-tailed (the 99th
        percentile ~12 times the median), so fixed halves left one thread idle at the end
        of each batch. A deal's values do not depend on which thread solves it."""
        tables, deals, play, out, taken = self._batch
        m = deals.shape[0]
        try:
            while not self._failed:
                a = next(taken)
                if a >= m:
                    return
                out[a:a + 1] = solver.run(tables, deals[a:a + 1], play)
        except BaseException:
            self._failed = True          # the other threads stop at their next deal
            raise

    def combine(self, parts: list) -> None:
        return None
