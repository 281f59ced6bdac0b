"""The evaluators of a position's legal cards, and the legal cards themselves.

An evaluator maps determinizations (full deals consistent with what the player to move
knows, from :class:`catchten_sim.determinize.Sampler`) to a value of every candidate card
on each of them. Two live here, below their users (:mod:`catchten_sim.advise`, the
Python-driven players of :mod:`catchten_sim.pimc`), never importing them:

``rollout`` (:class:`RolloutEvaluator`)
    Play the card, then the kernel policies play the deal out (one outcome row per deal
    and card, every candidate drawing from the same random stream).
``dd`` (:class:`DoubleDummyEvaluator`)
    Every deal solved double-dummy by the solver's batch entry
    (:func:`catchten_sim._kernels.solve.solve_batch`, all cards of the player to move
    valued in one call per deal, sharing one transposition table): the value of a card is
    the final hand score difference for the whole deal, the mover's side total minus the
    other sides' totals added together, when every player plays best with every hand
    visible (RULES.md §2, §7.1, §7.2; three or more sides: the paranoid reduction, the
    mover's side against the others together). Averaged over determinizations this is
    Perfect Information Monte Carlo (PIMC).

What ``dd`` assumes: after the card, everyone plays perfectly *and sees every hand*; so it
overrates plays that need a guess to be made right (the "strategy fusion" of PIMC), while
heuristic rollouts (``rollout``) assume the club player of :mod:`catchten_sim.policies`.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from . import run
from ._kernels import engine as K
from ._kernels import rollout as KR
from ._kernels import solve as _k
from .cards import cards_of_mask
from .errors import CatchTenError
from .policies import Policy, Seating
from .position import InfoSet
from .rules import NO_TRUMPS
from .solve import DEFAULT_NODE_LIMIT, Solver, run_watched, solver_tables

__all__ = ["DD_MEASURES", "DoubleDummyEvaluator", "Evaluator", "ROLLOUT_SALT",
           "RolloutEvaluator", "dealt_hands", "legal_cards", "play_of", "played_masks"]

#: the measures a double-dummy solve gives (the value only: no line is played out)
DD_MEASURES = ("diff",)
ROLLOUT_SALT = 0xD1B54A32D192ED03


# ------------------------------------------------------------------------ legal cards
def legal_cards(info: InfoSet) -> list[int]:
    """The cards the player to move may play (docs/rules.md §1, §3, §7.6), ascending:
    :meth:`catchten_sim.state.PlayState.legal_cards` of the position's play so far."""
    if info.state is None:
        raise CatchTenError("position", "no play state", "an InfoSet built without its play")
    return info.state.legal_cards()


# ------------------------------------------------------------------------ rollout
class Evaluator(Protocol):
    """Maps full deals to outcome rows; the interface every evaluator implements.

    ``evaluate(hands, first)``: ``hands`` int64 (m, n_sets, n) determinizations (the
    cards each seat holds now and in later sets), ``first`` the number of the batch's
    first sample (for reproducible random streams). Returns int16 (m, n_cand,
    ``rollout.n_out_cols(n_sides)``): the Ten's taker and holder side and each side's
    honours, cards, card points and total for the whole hand (columns ``rollout.R_*``).
    """

    name: str

    def evaluate(self, hands: np.ndarray, first: int) -> np.ndarray: ...


class _Resume:
    """The kernel view of an information set: the state to resume play from."""

    def __init__(self, info: InfoSet) -> None:
        r = info.rules
        self.info = info
        self.t = r.tables()
        n = r.players
        owner = np.full(52, -1, dtype=np.int64)
        for s in range(n):
            for c in cards_of_mask(info.played_by[s]):
                owner[c] = s
        self.owner_known = owner
        tm0 = 0
        for _, c in info.trick:
            tm0 |= 1 << c
        led0 = info.trick[0][1] // 13 if info.trick else 0
        leads = list(info.trump_leads)
        if info.trick and info.trump < NO_TRUMPS and led0 == info.trump:
            leads[r.side_of(info.leader)] -= 1       # counted when the trick ends
        self.trump_leads0 = np.array(leads, dtype=np.int64)
        self.start = (np.int64(info.trick_index), np.int64(info.leader),
                      np.int64(len(info.trick)), np.int64(tm0), np.int64(led0),
                      np.int64(info.played & ~tm0),
                      np.int64(-1 if info.ten_taker is None else info.ten_taker))
        units = r.n_sets if r.per_set_scoring else 1
        self.cap_mask0 = (np.array(info.cap_masks, dtype=np.int64).reshape(units, r.n_sides)
                          if info.cap_masks else np.zeros((units, r.n_sides), dtype=np.int64))
        self.turnup = -1 if info.turnup is None else int(info.turnup)


@dataclass
class RolloutEvaluator:
    """Play each candidate, then let ``policies`` (one id per seat) play the deal out.

    Every candidate of sample ``i`` uses the random stream ``(seed, i)``. Samples are
    split over ``threads`` (the result does not depend on the split).
    """

    info: InfoSet
    candidates: Sequence[int]
    policies: Sequence[Policy]
    seed: int = 1
    threads: int = 1
    name: str = "rollout"
    #: the command a refused policy is named for (``policy: not available``)
    where: str = "advise's rollouts"

    def __post_init__(self) -> None:
        self._rs = _Resume(self.info)
        # the rollouts' streams must not be the sampler's (same seed, same sample number):
        # a separate key, else the play would be correlated with the deal drawn
        self._play_seed = (int(self.seed) ^ ROLLOUT_SALT) & (2 ** 64 - 1)
        self._cands = np.array(list(self.candidates), dtype=np.int64)
        r = self.info.rules
        self._pols = Seating.of(self.policies).kernel_ids(
            self.where, r.seats_of(r.side_of(self.info.seat)))
        rs = self._rs
        self._job = KR.RolloutJob(rs.owner_known, rs.cap_mask0, rs.trump_leads0, rs.start,
                                  np.int64(self.info.seat), np.int64(self.info.dealer),
                                  np.int64(self.info.trump), np.int64(rs.turnup), self._pols,
                                  np.uint64(self._play_seed))
        n_tricks = self.info.rules.n_sets * self.info.rules.set_size
        n = self.info.rules.players
        self._nolog = (np.zeros(1, dtype=np.int64), np.zeros((1, n), dtype=np.int64),
                       np.zeros(1, dtype=np.int64))
        self._n_tricks = n_tricks
        # the run engine's executor (threads, or inline for one); a batch of samples is
        # one chunk, split over the threads, each with its own work area kept across batches
        self._executor = run.make_executor(max(1, self.threads))
        self._task = _RolloutBatch(self)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.close()
            self._executor = None

    def _run(self, hands, first, out, scr, cands, do_log=False, logs=None):
        KR.rollout_chunk(self._rs.t, scr, self._job, hands, cands, np.int64(first), out,
                         do_log, logs if logs is not None else self._nolog)

    def evaluate(self, hands: np.ndarray, first: int) -> np.ndarray:
        m = hands.shape[0]
        r = self.info.rules
        out = np.zeros((m, len(self._cands), KR.n_out_cols(r.n_sides)), dtype=np.int16)
        task = self._task
        task.hands, task.first, task.out = hands, first, out
        try:
            run.run_batch(self._executor, task, m, first)
        finally:
            task.hands = task.out = None
        return out

    def line(self, hands: np.ndarray, index: int, card: int) -> tuple[np.ndarray, ...]:
        """Play one determinization (``hands`` (1, n_sets, n), sample number ``index``)
        after ``card`` with the play logged: ``(leaders, cards (tricks, n), winners,
        outcome row)``."""
        n = self.info.rules.players
        logs = (np.full(self._n_tricks, -1, dtype=np.int64),
                np.full((self._n_tricks, n), -1, dtype=np.int64),
                np.full(self._n_tricks, -1, dtype=np.int64))
        out = np.zeros((1, 1, KR.n_out_cols(self.info.rules.n_sides)), dtype=np.int16)
        self._run(np.ascontiguousarray(hands), index, out, K.scratch(self._rs.t),
                  np.array([card], dtype=np.int64), True, logs)
        return logs[0], logs[1], logs[2], out[0, 0]


class _RolloutBatch:
    """A batch of rollouts as a run-engine task: samples ``first … first+count-1`` of the
    batch in ``hands`` (sample numbers from ``first``) written into ``out``."""

    def __init__(self, ev: RolloutEvaluator) -> None:
        self.ev = ev
        self.key = f"rollout-{id(ev)}"
        self.hands: Any = None
        self.out: Any = None
        self.first = 0

    def scratch(self) -> Any:
        return K.scratch(self.ev._rs.t)

    def run(self, first: int, count: int, scr: Any) -> None:
        a = first - self.first
        self.ev._run(self.hands[a:a + count], first, self.out[a:a + count], scr,
                     self.ev._cands)

    def combine(self, parts: list) -> None:
        return None


# ------------------------------------------------------------------------ double dummy
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
    (:mod:`catchten_sim.run`), split over its threads; each thread's work area is a
    :class:`~catchten_sim.solve.Solver` (its own transposition table), kept by the
    executor across batches. The values do not depend on the split.

    Parameters
    ----------
    info : InfoSet
    candidates : the legal cards to value (card indices)
    threads : solver threads (an executor of its own, closed by :meth:`close`).
    tt_bits : log2 of each thread's transposition-table entries (None: by the deal's
        size, :class:`~catchten_sim.solve.Solver`).
    executor : a run-engine executor to use instead (``run.make_executor(threads)``;
        not closed here): its solvers are kept across evaluators (a ``pimc`` player's
        decisions). ``threads`` is then the executor's.
    """

    name = "dd"
    names = DD_MEASURES

    def __init__(self, info: InfoSet, candidates: Sequence[int], *, seed: int = 1,
                 threads: int = 1, tt_bits: int | None = None, executor: Any = None,
                 node_limit: int | None = DEFAULT_NODE_LIMIT) -> None:
        r = info.rules
        self.info = info
        self.candidates = np.array(list(candidates), dtype=np.int64)
        turnup = -1 if info.turnup is None else int(info.turnup)
        self.tables = solver_tables(r, int(info.trump), turnup, int(info.dealer))
        self.play = play_of(info)
        self._played = played_masks(info)
        self._own = executor is None
        self._executor = run.make_executor(max(1, int(threads))) if executor is None \
            else executor
        self.threads = self._executor.threads
        self._task = _SolveBatch(tt_bits, node_limit)
        self.nodes = 0
        #: ``time.monotonic()`` time at which the solves under way stop (None: never)
        self.deadline: float | Callable[[], float] | None = None
        #: True: a Ctrl-C keeps the batch's finished deals (``stopped_by``) instead of
        #: raising at once (``advise``; a ``pimc`` decision raises)
        self.keep_on_interrupt = False
        #: why the last batch was cut short: "time", "interrupted" or None
        self.stopped_by: str | None = None

    def close(self) -> None:
        if self._own and self._executor is not None:
            self._executor.close()
        self._executor = None

    def solve(self, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)``, int64 (k, 53) each: the proven bounds of every legal card's
        value at its index (``INF`` elsewhere), the best value at 52, for the first ``k``
        deals of ``hands`` (cards held now and in later sets). ``low == high`` (exact)
        unless a solve reached its node budget or was stopped. ``k`` is every deal unless
        :attr:`deadline` passed (or a Ctrl-C came with :attr:`keep_on_interrupt`) during
        the batch: then the deals taken by then, the ones stopped in mid-solve with the
        bounds proven so far (:attr:`stopped_by` says why)."""
        deals = np.ascontiguousarray(hands | self._played[None], dtype=np.int64)
        out = np.empty((deals.shape[0], 2, 53), dtype=np.int64)
        k, self.stopped_by = self._task.solve(self._executor, self.tables, deals, self.play,
                                              out, self.deadline, self.keep_on_interrupt)
        return out[:k, 0], out[:k, 1]

    def measures(self, hands: np.ndarray, first: int) -> dict[str, np.ndarray]:
        """``diff``: each candidate's value on each deal, the midpoint of its bounds on a
        bounded deal (exact elsewhere); ``diff_lo`` / ``diff_hi``: the proven bounds. Fewer
        rows than ``hands`` when the batch was cut short (:meth:`solve`)."""
        low, high = self.solve(hands)
        lo, hi = low[:, self.candidates], high[:, self.candidates]
        if (hi >= _k.INF).any():          # pragma: no cover - a solver/legality mismatch
            raise RuntimeError("the solver found a candidate card illegal")
        lo_f, hi_f = lo.astype(np.float64), hi.astype(np.float64)
        return {"diff": (lo_f + hi_f) / 2, "diff_lo": lo_f, "diff_hi": hi_f}


    def alike(self) -> frozenset[tuple[int, int]]:
        """The pairs ``(i, j)``, ``i < j``, of candidates (indexes) the solver gives one
        value on every deal consistent with the position, however early a solve stops
        (its equivalent cards, ``_kernels/solve.py``'s ``_thin``): of one suit, neither
        scoring honour points, and no card between them in rank that another hand may
        hold or that lies in the current trick (each is the mover's own, gone in a
        completed trick, dead, or out of the deck). Empty where the rules let the solver
        merge no cards (``K_MERGE``)."""
        p, info = self.tables.p, self.info
        if not p[_k.K_MERGE]:
            return frozenset()
        trick = sum(1 << c for _, c in info.trick)
        open_cards = sum(1 << c for c in info.rules.deck) & ~(
            info.my_hand | (info.played & ~trick) | info.dead)
        plain = [(i, int(c)) for i, c in enumerate(self.candidates)
                 if not (int(p[_k.K_HONMASK]) >> int(c)) & 1]
        return frozenset(
            (i, j) for i, a in plain for j, b in plain if i < j and a // 13 == b // 13
            and not open_cards & ((1 << max(a, b)) - (2 << min(a, b))))


class _SolveBatch:
    """A batch of deals solved double-dummy, as a run-engine task: deals ``first …
    first+count-1`` of the batch, each thread with its own :class:`Solver` (the work
    area, kept by the executor under :attr:`key`: the same ``tt_bits``, the same
    solvers, whichever position is solved)."""

    def __init__(self, tt_bits: int | None,
                 node_limit: int | None = DEFAULT_NODE_LIMIT) -> None:
        self.tt_bits = None if tt_bits is None else int(tt_bits)
        self.node_limit = node_limit
        self._failed = False
        self.key = f"dd-solver-{self.tt_bits}"
        self._batch: Any = None
        self._solvers: list[Solver] = []

    def scratch(self) -> Solver:
        return Solver(self.tt_bits)

    def solve(self, executor: Any, tables: Any, deals: np.ndarray, play: list[int],
              out: np.ndarray, deadline: float | Callable[[], float] | None = None,
              keep: bool = False
              ) -> tuple[int, str | None]:
        """Solve ``deals`` after ``play`` into ``out`` (int64 (m, 2, 53): lower and upper
        bounds); returns ``(k, stopped_by)``: the first ``k`` deals are filled. The batch
        runs in a helper thread while this one watches the clock and Ctrl-C: at
        ``deadline`` or a Ctrl-C the solves under way stop within a few thousand nodes
        (their solvers' stop flags, keeping their bounds) and no thread takes another
        deal; ``k`` is then the deals taken. A Ctrl-C is raised here once every thread
        has stopped, unless ``keep`` (then ``stopped_by`` is "interrupted")."""
        m = deals.shape[0]
        taken = itertools.count()
        filled = np.zeros(m, dtype=bool)
        self._batch = (tables, deals, play, out, taken, filled)
        self._failed = False
        self._solvers = []
        stopped_by = None
        try:
            run_watched(lambda: run.run_batch(executor, self, m), self._stop, deadline)
        except KeyboardInterrupt:
            if not keep:
                raise
            stopped_by = "interrupted"
        finally:
            for s in self._solvers:
                s.resume()
            self._batch = None
        k = int(np.argmin(filled)) if not filled.all() else m
        if k < m and stopped_by is None:
            stopped_by = "time"
        return k, stopped_by

    def _stop(self) -> None:
        """The deadline or Ctrl-C: no thread takes another deal, and the solves under way
        stop."""
        self._failed = True
        for s in list(self._solvers):
            s.stop()

    def run(self, first: int, count: int, solver: Solver) -> None:
        """Solve the batch's deals one at a time, taking the next deal not yet taken until
        none is left (the slice ``first, count`` the executor gives each thread is only a
        share of the work, not which deals): solve times are heavy-tailed (the 99th
        percentile ~12 times the median), so fixed halves left one thread idle at the end
        of each batch. A deal's values do not depend on which thread solves it; a solve
        that reaches the node budget (or is stopped) keeps its proven bounds."""
        tables, deals, play, out, taken, filled = self._batch
        m = deals.shape[0]
        solver.node_limit = self.node_limit
        self._solvers.append(solver)
        if self._failed:                 # stopped before this thread began
            solver.stop()
        try:
            while not self._failed:
                a = next(taken)
                if a >= m:
                    return
                low, high = solver.run_bounds(tables, deals[a:a + 1], play)
                out[a, 0], out[a, 1] = low[0], high[0]
                filled[a] = True
        except BaseException:
            self._failed = True          # the other threads stop at their next deal
            raise

    def combine(self, parts: list) -> None:
        return None
