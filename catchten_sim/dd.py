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

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ._kernels import solve as _k
from .position import InfoSet
from .solve import Solver, solver_tables

__all__ = ["DD_MEASURES", "DoubleDummyEvaluator", "dealt_hands", "new_solvers"]

#: the measures a double-dummy solve gives (the value only: no line is played out)
DD_MEASURES = ("diff",)


def play_of(info: InfoSet) -> list[int]:
    """The cards played so far this hand, in order (completed tricks, then the current
    trick)."""
    done = [c for tr in info.state.tricks for c in tr.cards] if info.state is not None else []
    return done + [c for _, c in info.trick]


def new_solvers(threads: int, tt_bits: int = 18) -> list[Solver]:
    """One search context (scratch and transposition table) per thread, for reuse."""
    return [Solver(tt_bits) for _ in range(max(1, int(threads)))]


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
    points minus theirs). Deals are split over ``threads`` solvers (one transposition
    table each); the values do not depend on the split.

    Parameters
    ----------
    info : InfoSet
    candidates : the legal cards to value (card indices)
    tt_bits : log2 of each thread's transposition-table entries.
    solvers : reuse these search contexts (:func:`new_solvers`; one per thread) instead of
        allocating tables.
    """

    name = "dd"
    names = DD_MEASURES

    def __init__(self, info: InfoSet, candidates: Sequence[int], *, seed: int = 1,
                 threads: int = 1, tt_bits: int = 18,
                 solvers: list[Solver] | None = None) -> None:
        r = info.rules
        self.info = info
        self.candidates = np.array(list(candidates), dtype=np.int64)
        self.threads = max(1, int(threads))
        turnup = -1 if info.turnup is None else int(info.turnup)
        self.tables = solver_tables(r, int(info.trump), turnup, int(info.dealer))
        self.play = play_of(info)
        self._played = played_masks(info)
        self._solvers = solvers[:self.threads] if solvers else new_solvers(self.threads,
                                                                             tt_bits)
        self.threads = len(self._solvers)
        self._pool = ThreadPoolExecutor(max_workers=self.threads - 1) \
            if self.threads > 1 else None
        self.nodes = 0

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def solve(self, hands: np.ndarray) -> np.ndarray:
        """int64 (m, 53): every legal card's value at its index (``INF`` elsewhere), the
        best value at 52, for the deals ``hands`` (cards held now and in later sets)."""
        deals = np.ascontiguousarray(hands | self._played[None], dtype=np.int64)
        m = deals.shape[0]
        out = np.empty((m, 53), dtype=np.int64)
        th = len(self._solvers)
        if self._pool is None or m < 2 * th:
            out[:] = self._solvers[0].run(self.tables, deals, self.play)
            return out
        edges = [m * i // th for i in range(th + 1)]

        def work(i: int) -> None:
            a, b = edges[i], edges[i + 1]
            out[a:b] = self._solvers[i].run(self.tables, deals[a:b], self.play)

        futs = [self._pool.submit(work, i) for i in range(th - 1)]
        work(th - 1)
        for f in futs:
            f.result()
        return out

    def measures(self, hands: np.ndarray, first: int) -> dict[str, np.ndarray]:
        vals = self.solve(hands)[:, self.candidates]
        if (vals >= _k.INF).any():          # pragma: no cover - a solver/legality mismatch
            raise RuntimeError("the solver found a candidate card illegal")
        return {"diff": vals.astype(np.float64)}
