"""Game rollouts: P(each side wins the game | scores, dealer) at any number of sides, by
playing the rest of the game from a state with the engine
(:mod:`catchten_sim._kernels.gamerollout`).

>>> from catchten_sim import Rules
>>> from catchten_sim.gamerollouts import game_rollouts
>>> ro = game_rollouts(Rules("foster", 5), "heuristic", [((30, 25, 20, 10, 0), 0)],
...                    n_games=2000, seed=1)
>>> bool(ro.p_win[0, 0] > ro.p_win[0, 4]), bool(ro.se.max() <= 0.012)
(True, True)

Game ``g`` from a state is the game ``simulate_games(first_dealer=dealer,
start_scores=scores, seed=seed)`` plays as its game ``g``, and the states of one call
share their deals (common random numbers). Each figure has its binomial standard error;
10,000 games give se <= 0.005 whatever the probability. ``catchten equity --scores``
(:func:`catchten_sim.equity.equity_states`), ``advise --score`` (:func:`rollout_hook`) and
``match --p-win-game`` at four or more sides answer through them.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Sequence

import numpy as np

from ._kernels import engine as K
from ._kernels import gamerollout as KGR
from ._kernels import rollout as KR
from . import run
from .checks import check_count, check_seed, check_threads, max_threads
from .errors import CatchTenError
from .games import _GamesTask, _gscratch, _policies, unit_mode, unit_shape
from .policies import Policy, Seating
from .position import InfoSet
from .rules import Rules
from .state import card_points

__all__ = ["RolloutEquity", "game_rollouts", "parse_scores", "rollout_hook", "state_rows"]


ROLLOUT_GAMES = 10_000        # games per state: se <= sqrt(0.25 / 10,000) = 0.005
ROLLOUT_CHUNK = 1024
METHODS = ("exact", "rollouts")     # of catchten_sim.equity.equity_states


class _RolloutTask(_GamesTask):
    """Game rollouts from state rows on the run engine: games ``first …`` from every state;
    a chunk gives the wins, int64 (states, n_sides + 1) (the last column: unfinished)."""

    def __init__(self, rules: Rules, tab, pol_arr, seed_u, mode, n_units, n_rows,
                 states: np.ndarray):
        super().__init__(rules, tab, pol_arr, seed_u, mode, n_units, n_rows,
                         rules.n_sides + 1)
        self.states = states
        self.key = "rollouts-" + self.key + "-" + hashlib.sha256(
            states.tobytes()).hexdigest()[:16]

    def run(self, first: int, count: int, scr) -> np.ndarray:
        wins = np.zeros((len(self.states), self.ncols), dtype=np.int64)
        KGR.rollout_states(self._tab(), scr[0], scr[1], self.pol_arr, self.seed_u,
                           self.states, (np.int64(first), np.int64(count)), self.mode, wins)
        return wins

    def combine(self, parts: list) -> np.ndarray:
        return np.sum(parts, axis=0)

    def from_array(self, a: np.ndarray) -> Any:
        return a.reshape(len(self.states), self.ncols)


@dataclass(frozen=True)
class RolloutEquity:
    """P(each side wins the game) at named states, by game rollouts.

    Attributes
    ----------
    rules, policies, seed, n_games (per state)
    scores : int64 (m, n_sides); dealers : int64 (m,)
    wins : int64 (m, n_sides + 1): games won by each side, then unfinished
    elapsed_s, threads
    """

    rules: Rules
    policies: tuple[Policy, ...]
    seed: int
    n_games: int
    scores: np.ndarray = field(repr=False)
    dealers: np.ndarray = field(repr=False)
    wins: np.ndarray = field(repr=False)
    elapsed_s: float = 0.0
    threads: int = 1

    @property
    def p_win(self) -> np.ndarray:
        """float64 (m, n_sides): each side's share of the games."""
        return self.wins[:, :-1] / max(1, self.n_games)

    @property
    def se(self) -> np.ndarray:
        """float64 (m, n_sides): the binomial standard error of each figure."""
        p = self.p_win
        return np.sqrt(p * (1.0 - p) / max(1, self.n_games))


def state_rows(rules: Rules, states: Sequence[tuple[Sequence[int], int]]) -> np.ndarray:
    """``(scores, dealer)`` pairs as checked state rows (``_kernels.gamerollout``)."""
    ns = rules.n_sides
    n = rules.players
    if not len(states):
        raise CatchTenError("scores", "no state", "name at least one score vector")
    rows = np.zeros((len(states), ns + 3), dtype=np.int64)
    for i, (scores, dealer) in enumerate(states):
        problem = rules.score_problem(list(scores) if not isinstance(scores, list)
                                      else scores)
        if problem:
            raise CatchTenError("scores", "bad score", problem)
        rows[i, :ns] = list(scores)
        rows[i, ns] = check_count("dealer", dealer, 0, n - 1)   # the type, then the seat
    return rows


def game_rollouts(rules: Rules, policies: Sequence[object] | object = "heuristic",
                  states: Sequence[tuple[Sequence[int], int]] = (), *,
                  n_games: int = ROLLOUT_GAMES, seed: int = 1, threads: int | None = None,
                  chunk: int = ROLLOUT_CHUNK) -> RolloutEquity:
    """P(each side wins the game | scores, dealer) at each ``(scores, dealer)`` of
    ``states``, from ``n_games`` games played out from it (module docstring), any number
    of sides. The result depends on the seed only, never on ``threads``.

    Raises
    ------
    CatchTenError
        Scores not one per side below the target, a bad dealer, counts or seed.
    """
    n_games = check_count("games", n_games, 1)
    seed = check_seed(seed)
    used = max_threads() if threads is None else check_threads(threads)
    chunk = check_count("chunk", chunk, 1)
    pols = _policies(rules, policies)
    rows = state_rows(rules, states)
    ns = rules.n_sides
    at_once, compact = unit_mode(rules)
    n_units, n_rows = unit_shape(rules, compact)
    pol_arr = Seating.of(pols).kernel_ids("game rollouts")
    task = _RolloutTask(rules, rules.tables(), pol_arr, np.uint64(seed), (at_once, compact),
                        n_units, n_rows, rows)
    wins = np.zeros((len(rows), ns + 1), dtype=np.int64)

    def fold(c, part: np.ndarray) -> None:
        wins[:] += part

    executor = run.make_executor(used)
    try:
        out = run.run(task, run.chunk_plan(n_games, chunk, marks=False), executor, fold)
    finally:
        executor.close()
    if out.interrupted:
        raise KeyboardInterrupt
    return RolloutEquity(rules, pols, seed, n_games, rows[:, :ns].copy(), rows[:, ns].copy(),
                         wins, out.elapsed_s, out.threads)


def parse_scores(text: str, rules: Rules) -> tuple[int, ...]:
    """``"30 25 20 10 0"`` (spaces or commas) as one score per side, checked."""
    parts = str(text).replace(",", " ").split()
    try:
        scores = tuple(int(x) for x in parts)
    except ValueError:
        raise CatchTenError("scores", "not whole numbers",
                            f"{text!r}: one whole number per side, e.g. "
                            f"{' '.join(['0'] * rules.n_sides)!r}") from None
    problem = rules.score_problem(list(scores))
    if problem:
        raise CatchTenError("scores", "bad score", problem)
    return scores


#: games played on from the end of the deal per determinization and card (advise)
ADVISE_GAMES = 4
_ADVISE_SALT = 0x5EED_CA7C_4E71_0B0B


def rollout_hook(info: InfoSet, policies: Sequence[Policy], *, seed: int = 1,
                 threads: int | None = None
                 ) -> tuple[Callable[..., np.ndarray] | None, str]:
    """:func:`catchten_sim.equity.game_equity_hook` by game rollouts (any number of
    sides): each outcome row's unit is applied to the score, and when the game goes on
    ``ADVISE_GAMES`` games are played on from the next deal
    (``_kernels.gamerollout.rollout_after_unit``), the same games for every card of a
    determinization (common random numbers)."""
    r = info.rules
    ns = r.n_sides
    n_units, n_rows = unit_shape(r, True)
    unit = info.set_index if r.per_set_scoring else 0
    if unit < n_units - 1:
        return None, ("P(win) by game rollouts: not before the last set of a deal with "
                      "per-set scoring")
    before = np.array(info.score, dtype=np.int64)
    for u in range(unit):                     # earlier sets of this hand, already scored
        for sd in range(ns):
            before[sd] += info.cap_honours[u][sd] + card_points(r, info.cap_cards[u][sd])
    if r.score_problem(before.tolist()) is not None:     # a side reached the target
        return None, "P(win) not available: the game was decided before this set"
    used = max_threads() if threads is None else threads
    tab = r.tables()
    pol_arr = Seating.of(policies).kernel_ids("game rollouts")
    play_seed = np.uint64((int(seed) ^ _ADVISE_SALT) & (2 ** 64 - 1))
    nxt = (info.dealer + 1) % r.players
    base = KR.N_R_FIXED + ns * KR.R_PER_SIDE
    scratches = [(K.scratch(tab), _gscratch(r, n_units, n_rows), np.zeros(ns, np.int64))
                 for _ in range(used)]

    def fn(rows: np.ndarray, first: int = 0) -> np.ndarray:
        rows = np.ascontiguousarray(rows)
        out = np.zeros(rows.shape[:2] + (ns,))

        def part(slot: int, a: int, b: int) -> None:
            scr, gscr, after = scratches[slot]
            KGR.rollout_after_unit(tab, scr, gscr, pol_arr, play_seed,
                                   (before, after, np.int64(nxt), np.int64(base),
                                    np.int64(first + a), np.int64(ADVISE_GAMES)),
                                   rows[a:b], out[a:b])

        if used > 1 and len(rows) >= 2 * used:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(used - 1) as pool:
                run.run_parallel(part, len(rows), pool, used)
        else:
            part(0, 0, len(rows))
        return out

    fn.method = "rollouts"    # type: ignore[attr-defined]
    return fn, (f"P(win) by game rollouts: {ADVISE_GAMES} games played on from the end "
                f"of this deal per determinization and card ({ns} sides: no exact table)")
