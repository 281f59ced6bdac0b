"""The game-equity table P(win | scores, who deals), built on the games of
:mod:`catchten_sim.games`, its disk cache, and ``advise``'s P(win) hook (its in-memory cache).

>>> from catchten_sim import Rules
>>> from catchten_sim.equity import equity_table
>>> eq = equity_table(Rules("foster", 4), "heuristic", n_hands=20_000, seed=1)
>>> [round(p, 2) for p in eq.p_win((35, 30), dealer=3)]
[0.54, 0.46]

The equity table
----------------
``equity_table`` simulates ``n_hands`` deals (deal ``i`` dealt by seat ``i % n``, exactly
the deals of :func:`catchten_sim.simulate.simulate`), keeps each deal's outcome as its
scoring units' count-out step matrices (who took the Ten, the 10♦ bonus, each side's card
points, who took the A, K, Q, J (9 in jaques); with ``game_at_once`` the honours trick by
trick in the order taken, card points last), and solves the game exactly by dynamic
programming over that outcome distribution: every state below the target, for every
dealer. With sets the outcome is the whole deal (its sets jointly), so the correlation
between the sets of one deal is kept. When every seat of a side plays the same policy, the
deals dealt by the seats of one side are pooled (they are alike by symmetry) and the
table is by the dealer's side.

Two sides: every ``tie`` rule. Three sides: ``tie = count_out`` (the other rules carry
ties between some of the sides, which the state below the target cannot hold). Four or
more sides: the DP is refused (41**4 states times the outcomes is too big); those tables
are answered by game rollouts.

Game rollouts
-------------
:func:`game_rollouts` estimates P(each side wins | scores, dealer) at any number of sides
by playing the rest of the game from each named state with the engine
(:mod:`catchten_sim._kernels.gamerollout`): game ``g`` from a state is the game
``simulate_games(first_dealer=dealer, start_scores=scores, seed=seed)`` plays as its game
``g``, and the states of one call share their deals (common random numbers). Each figure
has its binomial standard error; 10,000 games give se <= 0.005 whatever the probability.
"""
from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Sequence

import numpy as np

from ._lazy import pandas as pd

if TYPE_CHECKING:
    import pandas
from ._kernels import games as G
from ._kernels.layout import GameEnd, Outcomes
from ._kernels import rollout as KR
from . import __version__, run
from .checks import check_count, check_seed, check_threads, max_threads
from .errors import CatchTenError, unknown_name
from .paths import ensure_parent
from .games import _GamesTask, _policies, open_run, unit_shape
from .policies import Policy, Seating
from .position import InfoSet
from .rules import Rules, check_rules
from .state import card_points
from .gamerollouts import METHODS, ROLLOUT_GAMES, game_rollouts, rollout_hook, state_rows

__all__ = ["EquityTable", "cached_equity_table", "equity_states", "equity_table",
           "game_equity_hook", "sample_outcomes", "solve_equity"]


# ------------------------------------------------------------------------------ equity
def _check_equity_rules(rules: Rules) -> None:
    ns = rules.n_sides
    if ns >= 4:
        raise CatchTenError(
            "players", "equity table too big",
            f"{rules.players} players in {ns} sides: the DP over {rules.target}^{ns} score "
            f"states times the deal outcomes is too big; the table is built for 2 sides "
            f"(every tie rule) and 3 sides (tie=count_out); use `simulate --games` instead")
    if ns == 3 and rules.tie != "count_out":
        raise CatchTenError(
            "variants", "equity table unsupported",
            f"tie={rules.tie} with 3 sides: a tie carried between two sides at or over the "
            f"target is not a state below the target; the 3-side table needs tie=count_out")


class _SamplesTask(_GamesTask):
    """Deals as units of a game (:func:`sample_outcomes`) on the run engine: a chunk
    gives its ``(steps, tside)`` (int8, (count, U, S, n_sides) and (count, U, S))."""

    def __init__(self, rules: Rules, tab, pol_arr, seed_u, at_once, n_units, n_rows):
        super().__init__(rules, tab, pol_arr, seed_u, (at_once, True), n_units, n_rows, 0)
        self.key = "samples-" + self.key

    def run(self, first: int, count: int, scr) -> tuple[np.ndarray, np.ndarray]:
        ns = self.rules.n_sides
        steps = np.zeros((count, self.n_units, self.n_rows, ns), dtype=np.int8)
        tside = np.zeros((count, self.n_units, self.n_rows), dtype=np.int8)
        G.run_unit_samples(self._tab(), scr[0], scr[1], self.pol_arr, self.seed_u,
                           np.int64(first), np.int64(count), self.mode, (steps, tside))
        return steps, tside

    def combine(self, parts: list) -> tuple[np.ndarray, np.ndarray]:
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def to_array(self, partial: Any) -> np.ndarray:
        return np.concatenate([partial[0].ravel(), partial[1].ravel()]).astype(np.int64)

    def from_array(self, a: np.ndarray) -> Any:
        ns = self.rules.n_sides
        per = self.n_units * self.n_rows
        m, rest = divmod(a.size, per * (ns + 1))
        if rest:
            raise CatchTenError("run-dir", "chunk file does not fit the plan",
                                f"{a.size} values, not deals of {per * (ns + 1)}")
        cut = m * per * ns
        return (a[:cut].astype(np.int8).reshape(m, self.n_units, self.n_rows, ns),
                a[cut:].astype(np.int8).reshape(m, self.n_units, self.n_rows))


def sample_outcomes(rules: Rules, policies: Sequence[object] | object = "heuristic", *,
                    n_hands: int, seed: int = 1, threads: int | None = None,
                    chunk: int = 1 << 15,
                    progress: Callable[[int, int], None] | None = None,
                    deadline: float | None = None, run_dir: Any = None,
                    scheduler: str | None = None, workers: int | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Deal and play ``n_hands`` deals (deal ``i`` dealt by seat ``i % n``, the deals of
    :func:`catchten_sim.simulate.simulate`) and return their units in compact form:
    ``steps`` int8 (m, U, S, n_sides) and ``tside`` int8 (m, U, S).

    ``m = n_hands`` unless the run stopped early: at ``deadline`` (a
    ``time.perf_counter()`` value) or on Ctrl-C, ``m`` is the deals finished (whole
    chunks, the first ``m`` deals of the full run); Ctrl-C before the first chunk ends
    re-raises. ``progress(done, n_hands)`` is called after every chunk. ``run_dir``: a
    :class:`catchten_sim.run.RunDir` whose chunks are read first and where every new
    chunk is written (then ``m`` is the deals of the chunks done without a gap from the
    first); ``scheduler``/``workers``: a Dask cluster (the same outcomes)."""
    used = max_threads() if threads is None else threads
    pols = _policies(rules, policies)
    at_once = rules.game_at_once
    n_units, n_rows = unit_shape(rules, True)
    ns = rules.n_sides
    tab = rules.tables()
    pol_arr = Seating.of(pols).kernel_ids("game simulations", rules.seats_of(0))
    steps = np.zeros((n_hands, n_units, n_rows, ns), dtype=np.int8)
    tside = np.zeros((n_hands, n_units, n_rows), dtype=np.int8)
    task = _SamplesTask(rules, tab, pol_arr, np.uint64(seed), at_once, n_units, n_rows)

    def fold(c, part) -> None:
        steps[c.first:c.first + c.count], tside[c.first:c.first + c.count] = part

    edges = run.chunk_plan(n_hands, chunk, marks=False)
    executor = run.make_executor(1) if run_dir is not None and not run_dir.compute else \
        run.make_executor(used, scheduler, workers)
    try:
        out = run.run(task, edges, executor, fold, progress=progress, run_dir=run_dir,
                         stop=(lambda: time.perf_counter() >= deadline)
                         if deadline is not None else None)
    finally:
        executor.close()
    gap = next((i for i in range(len(edges) - 1) if i not in out.done), len(edges) - 1)
    done = int(edges[gap])     # the first deals: the chunks done without a gap
    if done == 0:
        raise (CatchTenError("run-dir", "no finished chunk yet", str(run_dir.path))
               if run_dir is not None and not run_dir.compute else KeyboardInterrupt)
    if done < n_hands:
        return steps[:done].copy(), tside[:done].copy()
    return steps, tside


@dataclass(frozen=True)
class EquityTable:
    """P(each side wins the game | scores before a deal, who deals), exact for the deal
    outcome distribution estimated from ``n_hands`` simulated deals.

    Attributes
    ----------
    rules, policies, n_hands, seed
    by_side : bool, True when the classes are the dealer's side (deals by the seats of a
        side pooled), False when they are the dealer's seat.
    V : float64, (C, T, T) P(side 0 wins) for two sides; (C, T, T, T, 3) each side's for three.
    steps, tside, prob : the distinct deal outcomes (K, U, S, n_sides), (K, U, S) and
        their probability in each class (C, K).
    nxt : int64 (C,) the class of the next deal.
    F, W, dmax : carried ties, two sides (see ``_kernels.games``).
    n_outcomes : distinct deal outcomes; sim_s, dp_s : seconds.
    """

    rules: Rules
    policies: tuple[Policy, ...]
    n_hands: int
    seed: int
    by_side: bool
    V: np.ndarray = field(repr=False)
    steps: np.ndarray = field(repr=False)
    tside: np.ndarray = field(repr=False)
    prob: np.ndarray = field(repr=False)
    nxt: np.ndarray = field(repr=False)
    F: np.ndarray = field(repr=False)
    W: np.ndarray = field(repr=False)
    dmax: int = 0
    n_outcomes: int = 0
    sim_s: float = 0.0
    dp_s: float = 0.0
    requested_hands: int = 0
    #: "" (complete), "interrupted" (Ctrl-C), "time" (time limit) or "unfinished" (a summary
    #: of a run directory not yet finished)
    stopped: str = ""

    @property
    def partial(self) -> bool:
        """True when fewer deals than requested were simulated (Ctrl-C, time limit)."""
        return bool(self.stopped)

    @property
    def n_sides(self) -> int:
        return self.rules.n_sides

    @property
    def target(self) -> int:
        return self.rules.target

    def class_of(self, dealer: int) -> int:
        """The table's class of a dealer seat."""
        n = self.rules.players
        dealer = check_count("dealer", dealer, 0, n - 1)     # the type first, then the seat
        return dealer % self.n_sides if self.by_side else dealer

    def _scores(self, scores: Sequence[int]) -> np.ndarray:
        problem = self.rules.score_problem(scores)
        if problem:
            raise CatchTenError("score", "bad score", problem)
        return np.array(list(scores), dtype=np.int64)

    def _lookup(self, c: int, sc: np.ndarray) -> np.ndarray:
        """Per-side P(win) from the table at class ``c``, scores ``sc`` (rows, n_sides)."""
        if self.n_sides == 2:
            p0 = self.V[c, sc[:, 0], sc[:, 1]]
            return np.stack([p0, 1.0 - p0], axis=1)
        return self.V[c, sc[:, 0], sc[:, 1], sc[:, 2]]

    def _tied(self, c: int, after: np.ndarray) -> np.ndarray:
        """Two sides, a tie carried into the next deal of class ``c``."""
        if self.rules.game_at_once:
            p0 = np.full(len(after), self.F[c])
        else:
            d = np.clip(after[:, 0] - after[:, 1], -self.dmax, self.dmax)
            p0 = self.W[c, d + self.dmax]
        return np.stack([p0, 1.0 - p0], axis=1)

    def _value(self, sc: np.ndarray, flags: int, c: int, unit: int) -> np.ndarray:
        ns = self.n_sides
        if unit == 0:
            if flags:
                return self._tied(c, sc[None, :])[0]
            return self._lookup(c, sc[None, :])[0]
        idx = np.nonzero(self.prob[c])[0].astype(np.int64)
        code = np.zeros(len(idx), dtype=np.int64)
        after = np.zeros((len(idx), ns), dtype=np.int64)
        tie = int(self.rules.tie_rule)
        G.resolve_from_flags(sc, np.int64(flags), np.int64(unit), self.steps, self.tside, idx,
                             GameEnd(np.int64(self.target), np.int64(tie),
                                     self.rules.game_at_once), code, after)
        p = self.prob[c, idx]
        vals = np.zeros((len(idx), ns))
        won = code >= 0
        vals[won, code[won]] = 1.0
        cn = int(self.nxt[c])
        go = code == -1
        if go.any():
            vals[go] = self._lookup(cn, after[go])
        tied = code == -2
        if tied.any():
            vals[tied] = self._tied(cn, after[tied])
        return (p[:, None] * vals).sum(axis=0)

    def p_win(self, scores: Sequence[int], dealer: int, set_index: int = 0) -> tuple[float, ...]:
        """Each side's P(winning the game) before a deal (or, with per-set scoring, before
        set ``set_index`` of it, 0-based) at these scores, dealt by seat ``dealer``.

        Mid-deal (``set_index`` > 0) the earlier sets of the deal are averaged over (the
        table does not know what they held).

        Raises
        ------
        CatchTenError
            Scores not one per side below the target, a bad dealer or set index.
        """
        sc = self._scores(scores)
        c = self.class_of(dealer)
        u = self._unit(set_index)
        return tuple(float(x) for x in self._value(sc, 0, c, u))

    def _unit(self, set_index: int) -> int:
        U = self.steps.shape[1]
        return check_count("set", set_index, 0, U - 1)   # scoring units per deal

    def p_win_after(self, scores_before: Sequence[int], steps: Any, dealer: int,
                    set_index: int = 0) -> tuple[float, ...]:
        """Each side's P(winning the game) once a scoring unit with these points is over.

        Parameters
        ----------
        scores_before : each side's score before the unit (below the target).
        steps : array-like (rows, n_sides) of the unit's points. Without ``game_at_once``:
            rows in the count-out order (``COUNT_OUT_STEPS``: ten, ten_of_diamonds, cards,
            ace, king, queen, jack, nine; fewer rows mean the rest are 0). With
            ``game_at_once``: one row per honour-scoring trick in the order taken (the
            taker's honours; at most one side non-zero per row), the card points last.
        dealer : the seat that dealt this unit's deal.
        set_index : the unit's set (0-based) with per-set scoring, else 0.

        Returns the winner as certainty when the unit decides the game, else the table's
        value of the next state (the next set of the deal, or the next deal).
        """
        sc = self._scores(scores_before)
        c = self.class_of(dealer)
        u = self._unit(set_index)
        ns = self.n_sides
        arr = np.asarray(steps, dtype=np.int64)
        if arr.ndim != 2 or arr.shape[1] != ns or (arr < 0).any():
            raise CatchTenError("steps", "bad shape",
                                f"shape {arr.shape}: need (rows, {ns}) of points >= 0")
        at_once = self.rules.game_at_once
        if at_once:
            rows = np.vstack([arr[:-1][arr[:-1].any(axis=1)], arr[-1:]])
            if (np.count_nonzero(rows[:-1], axis=1) > 1).any():
                raise CatchTenError("steps", "bad trick row",
                                    "with game_at_once each trick row scores for one side")
            tside = np.full(len(rows), -1, dtype=np.int64)
            for r in range(len(rows) - 1):
                tside[r] = int(np.argmax(rows[r] != 0))
            mat = rows
        else:
            if arr.shape[0] > G.N_STEPS:
                raise CatchTenError("steps", "bad shape",
                                    f"{arr.shape[0]} rows: at most {G.N_STEPS} count-out steps")
            mat = np.zeros((G.N_STEPS, ns), dtype=np.int64)
            mat[:arr.shape[0]] = arr
            tside = np.full(G.N_STEPS, -1, dtype=np.int64)
        running = sc.copy()
        flags = np.zeros(1, dtype=np.int64)
        w, _, _ = G.apply_unit_py(running, flags, np.ascontiguousarray(mat), tside,
                                  np.int64(self.target), np.int64(self.rules.tie_rule), at_once)
        if w >= 0:
            out = [0.0] * ns
            out[int(w)] = 1.0
            return tuple(out)
        U = self.steps.shape[1]
        if u + 1 < U:
            vals = self._value(running, int(flags[0]), c, u + 1)
        else:
            cn = int(self.nxt[c])
            vals = (self._tied(cn, running[None, :])[0] if flags[0]
                    else self._lookup(cn, running[None, :])[0])
        return tuple(float(x) for x in vals)

    # ---------------------------------------------------------------- output
    def to_frame(self) -> pandas.DataFrame:
        """One row per state: ``score_0 … , dealer_side`` (``dealer_seat`` too when the
        classes are seats), ``p_win_0 …``. Scores are before the deal, 0 … target-1."""
        T = self.target
        ns = self.n_sides
        frames = []
        grids = np.meshgrid(*[np.arange(T)] * ns, indexing="ij")
        flat = [g.ravel() for g in grids]
        for c in range(self.V.shape[0]):
            cols: dict[str, Any] = {f"score_{s}": flat[s] for s in range(ns)}
            if self.by_side:
                cols["dealer_side"] = np.full(len(flat[0]), c)
            else:
                cols["dealer_side"] = np.full(len(flat[0]), self.rules.side_of(c))
                cols["dealer_seat"] = np.full(len(flat[0]), c)
            if ns == 2:
                p0 = self.V[c].ravel()
                cols["p_win_0"] = p0
                cols["p_win_1"] = 1.0 - p0
            else:
                for s in range(ns):
                    cols[f"p_win_{s}"] = self.V[c][..., s].ravel()
            frames.append(pd.DataFrame(cols))
        df = pd.concat(frames, ignore_index=True)
        keys = [f"score_{s}" for s in range(ns)] + ["dealer_side"] + \
            ([] if self.by_side else ["dealer_seat"])
        return df.sort_values(keys, kind="stable").reset_index(drop=True)

    def to_csv(self, path: str | Path) -> Path:
        """Write ``to_frame()`` as CSV (``.csv``) or Parquet (``.parquet``, pyarrow);
        other suffixes are refused (CatchTenError ``out``)."""
        p = Path(path)
        suffix = p.suffix.lower()
        if suffix not in (".csv", ".parquet"):
            raise CatchTenError("out", "unknown file type",
                                f"{p.name}: use a .csv or .parquet file name")
        ensure_parent(p, "out")   # a file's directory is never created
        try:
            if suffix == ".parquet":
                self.to_frame().to_parquet(p, index=False)
            else:
                self.to_frame().to_csv(p, index=False, float_format="%.6f")
        except OSError as exc:
            raise CatchTenError("out", "cannot write", f"{p}: {exc.strerror}") from None
        return p

    def to_dict(self) -> dict[str, Any]:
        """What the table was made from (JSON-ready; the table itself is ``to_frame``)."""
        return {"rules": self.rules.to_dict(), "policies": [p.label for p in self.policies],
                "hands": self.n_hands, "seed": self.seed, "target": self.target,
                "tie": self.rules.tie, "game_at_once": self.rules.game_at_once,
                "classes": "dealer_side" if self.by_side else "dealer_seat",
                "distinct_outcomes": self.n_outcomes,
                "simulation_s": round(self.sim_s, 3), "dp_s": round(self.dp_s, 3),
                "requested_hands": self.requested_hands or self.n_hands,
                "partial": self.partial, "stopped": self.stopped or None}


def _classes(rules: Rules, pols: tuple[Policy, ...]) -> tuple[bool, int, np.ndarray]:
    n, ns = rules.players, rules.n_sides
    by_side = n % ns == 0 and all(pols[s] == pols[s % ns] for s in range(n)) and \
        all(rules.side_of(s) == s % ns for s in range(n))
    c_n = ns if by_side else n
    return by_side, c_n, (np.arange(c_n, dtype=np.int64) + 1) % c_n


def outcome_distribution(steps: np.ndarray, tside: np.ndarray, cls: np.ndarray, c_n: int
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct outcomes and their probability per class: ``(steps (K, U, S, ns),
    tside (K, U, S), prob (C, K))`` from per-deal arrays and each deal's class."""
    n = steps.shape[0]
    flat = np.ascontiguousarray(np.concatenate([steps.reshape(n, -1), tside.reshape(n, -1)],
                                               axis=1))
    width = flat.shape[1]
    keys = flat.view(np.dtype((np.void, width))).ravel()
    uniq, inv = np.unique(keys, return_inverse=True)
    k_n = len(uniq)
    rows = np.frombuffer(uniq.tobytes(), dtype=np.int8).reshape(k_n, width)
    ns_ = steps.shape[1:]
    cut = int(np.prod(ns_))
    u_steps = rows[:, :cut].reshape((k_n,) + ns_).astype(np.int64)
    u_tside = rows[:, cut:].reshape((k_n,) + tside.shape[1:]).astype(np.int64)
    counts = np.bincount(cls * k_n + inv.ravel(), minlength=c_n * k_n).reshape(c_n, k_n)
    prob = counts / counts.sum(axis=1, keepdims=True)
    return u_steps, u_tside, prob


def _groups(u_steps: np.ndarray, prob: np.ndarray) -> tuple:
    """CSR of the outcomes grouped by deal totals within each class (see
    ``_kernels.games.equity_two_sides``)."""
    tau = u_steps.sum(axis=(1, 2))                      # (K, ns)
    ns = tau.shape[1]
    g_ptr = [0]
    g_tau: list = []
    g_p: list = []
    l_ptr = [0]
    l_idx: list = []
    l_p: list = []
    for c in range(prob.shape[0]):
        idx = np.nonzero(prob[c])[0]
        t = tau[idx]
        order = np.lexsort(t.T[::-1])
        idx, t = idx[order], t[order]
        if len(idx):
            new = np.ones(len(idx), dtype=bool)
            new[1:] = (t[1:] != t[:-1]).any(axis=1)
            starts = np.nonzero(new)[0]
            ends = np.append(starts[1:], len(idx))
            p = prob[c, idx]
            csum = np.concatenate([[0.0], np.cumsum(p)])
            base = len(l_idx)
            for a, b in zip(starts, ends):
                g_tau.append(t[a])
                g_p.append(csum[b] - csum[a])
                l_ptr.append(base + b)
            l_idx.extend(idx.tolist())
            l_p.extend(p.tolist())
        g_ptr.append(len(g_tau))
    return (np.array(g_ptr, dtype=np.int64),
            np.array(g_tau, dtype=np.int64).reshape(-1, ns),
            np.array(g_p, dtype=np.float64), np.array(l_ptr, dtype=np.int64),
            np.array(l_idx, dtype=np.int64), np.array(l_p, dtype=np.float64))


def solve_equity(rules: Rules, u_steps: np.ndarray, u_tside: np.ndarray, prob: np.ndarray,
                 nxt: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The DP for a given outcome distribution: ``(V, F, W, dmax)`` (see
    :class:`EquityTable`). Usable with synthetic distributions (tests)."""
    _check_equity_rules(rules)
    T = rules.target
    ns = rules.n_sides
    at_once = rules.game_at_once
    tie = int(rules.tie_rule)
    c_n = prob.shape[0]
    u_steps = np.ascontiguousarray(u_steps, dtype=np.int64)
    u_tside = np.ascontiguousarray(u_tside, dtype=np.int64)
    grp = _groups(u_steps, prob)
    F = np.zeros(c_n)
    dmax = 0
    W = np.zeros((c_n, 1))
    if ns == 2 and at_once:
        first0 = (u_tside[:, 0, 0] == 0).astype(np.float64)
        F = prob @ first0
    if ns == 2 and not at_once and tie != G.TIE_COUNT_OUT:
        delta = u_steps[..., 0].sum(axis=2) - u_steps[..., 1].sum(axis=2)   # (K, U)
        dmax = int(T + u_steps.sum(axis=(1, 2)).max()) + 1
        d_u, d_inv = np.unique(delta, axis=0, return_inverse=True)
        d_prob = np.zeros((c_n, len(d_u)))
        for c in range(c_n):
            np.add.at(d_prob[c], d_inv.ravel(), prob[c])
        W = G.tie_values(np.ascontiguousarray(d_u, dtype=np.int64), d_prob, nxt, dmax)
    outcomes = Outcomes(u_steps, u_tside, *grp)
    end = GameEnd(np.int64(T), np.int64(tie), at_once)
    if ns == 2:
        V = G.equity_two_sides(outcomes, nxt, end, F, W, np.int64(dmax))
    else:
        V = G.equity_three_sides(outcomes, nxt, end)
    return V, F, W, dmax


MAX_EQUITY_HANDS = 20_000_000     # the per-deal outcomes are held in memory (~20 bytes each)
DP_SECONDS = 1e-8                 # rough DP cost per (distinct outcome x score state x class)


class EquityInterrupted(KeyboardInterrupt):
    """A Ctrl-C during the game-equity DP: no table (the DP fills it from the target
    down; a part of it is no table), and ``line`` says what there was."""

    def __init__(self, deals: int, requested: int, outcomes: int, ran_s: float,
                 est_s: float) -> None:
        super().__init__()
        of = f" of {requested:,}" if deals != requested else ""
        self.line = (f"interrupted (Ctrl-C) during the game-equity DP: {deals:,}{of} deals "
                     f"were simulated ({outcomes:,} distinct outcomes) and the DP had run "
                     f"{ran_s:.1f} s of about {est_s:.0f} s: no table to show (a smaller "
                     "--hands solves faster)")


def _solve_interruptibly(rules: Rules, dist: tuple[np.ndarray, np.ndarray, np.ndarray],
                         nxt: np.ndarray, deals: int, requested: int,
                         est_s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """:func:`solve_equity`, with a Ctrl-C acting at once (:func:`run.interruptible`) and
    raised as :class:`EquityInterrupted`."""
    t = time.perf_counter()
    try:
        return run.interruptible(solve_equity, rules, *dist, nxt)
    except EquityInterrupted:
        raise
    except KeyboardInterrupt:
        raise EquityInterrupted(deals, requested, len(dist[2][0]),
                                time.perf_counter() - t, est_s) from None


def equity_table(rules: Rules, policies: Sequence[object] | object = "heuristic", *,
                 n_hands: int = 1_000_000, seed: int = 1,
                 threads: int | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 time_limit: float | None = None,
                 on_solve: Callable[[int, float], None] | None = None,
                 run_dir: Any = None, scheduler: str | None = None,
                 workers: int | None = None, chunk: int = 1 << 15,
                 outputs: dict[str, Any] | None = None) -> EquityTable:
    """The game-equity table from ``n_hands`` simulated deals (module docstring).

    ``run_dir`` (kind ``equity``) keeps the simulated deals' outcomes chunk by chunk: the
    same call (or ``catchten resume DIR``) continues the simulation, and the table is the
    one an uninterrupted run gives; ``scheduler``/``workers`` simulate on a Dask cluster.
    ``outputs`` (the CLI's ``{"out": PATH, "plot": true}``) is kept for ``catchten
    resume``, as in :func:`catchten_sim.simulate.simulate`.

    ``progress(done, n_hands)`` is called while the deals are simulated. With
    ``time_limit`` (seconds) the simulation stops at about 0.4 of it, and when the DP over
    the distinct outcomes is estimated (``DP_SECONDS``) to overrun the rest, only the first
    deals that fit are used (three sides: the DP dominates); Ctrl-C during the simulation
    solves from the deals finished. Either way the table says so (``stopped``,
    ``n_hands`` the deals used, ``requested_hands``). ``on_solve(distinct outcomes,
    estimated seconds)`` is called before the DP; a Ctrl-C during the DP acts at once and
    raises :class:`EquityInterrupted` (no table: its ``line`` says what there was).

    Raises
    ------
    CatchTenError
        Four or more sides, three sides without ``tie=count_out``, bad counts.
    """
    _check_equity_rules(check_rules(rules))
    pols = _policies(rules, policies)
    by_side, c_n, nxt = _classes(rules, pols)
    n_hands = check_count("hands", n_hands, max(100, 10 * rules.players), MAX_EQUITY_HANDS)
    seed = check_seed(seed)
    if threads is not None:
        threads = check_threads(threads)
    chunk = check_count("chunk", chunk, 1)
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + 0.4 * time_limit
    run.check_executor_options(scheduler, workers)      # before a run directory is made
    if run_dir is not None:
        run_dir = run.RunDir.create_or_open(run_dir, {
            "kind": "equity", "rules": rules.to_dict(), "policies": [p.label for p in pols],
            "seed": seed, "deals": n_hands, "chunk": chunk,
            "plan": {"chunks": len(run.chunk_plan(n_hands, chunk, marks=False)) - 1,
                     "ends": "multiples of chunk, and the last deal"},
            **({"outputs": outputs} if outputs else {})})
    steps, tside = sample_outcomes(rules, pols, n_hands=n_hands, seed=seed, threads=threads,
                                   progress=progress, deadline=deadline, run_dir=run_dir,
                                   scheduler=scheduler, workers=workers, chunk=chunk)
    done = steps.shape[0]
    stopped = "" if done == n_hands else ("time" if deadline is not None and
                                           time.perf_counter() >= deadline else
                                           "unfinished" if run_dir is not None
                                           and not run_dir.compute else "interrupted")
    dealer = np.arange(done, dtype=np.int64) % rules.players
    cls = dealer % rules.n_sides if by_side else dealer
    u_steps, u_tside, prob = outcome_distribution(steps, tside, cls, c_n)
    if time_limit is not None and rules.n_sides >= 3:
        # the DP's cost grows with the distinct outcomes (about one per deal with three
        # sides): time it on the first deals, then keep as many deals as fit in the rest
        states = rules.target ** rules.n_sides * c_n
        left = max(0.0, t0 + time_limit - time.perf_counter())
        if DP_SECONDS * len(prob[0]) * states > left:
            small = min(done, 1000 // rules.players * rules.players)
            cal = outcome_distribution(steps[:small], tside[:small], cls[:small], c_n)
            tc = time.perf_counter()
            solved = solve_equity(rules, *cal, nxt)
            rate = max(DP_SECONDS, (time.perf_counter() - tc) / (len(cal[2][0]) * states))
            left = max(0.0, t0 + time_limit - time.perf_counter())
            est = rate * len(prob[0]) * states
            keep = int(0.8 * done * left / est) // rules.players * rules.players
            if keep <= small:
                # only the timing run fits: it is the table
                t1 = time.perf_counter()
                V, F, W, dmax = solved
                return EquityTable(rules, pols, small, seed, by_side, V, *cal, nxt, F, W,
                                   dmax, len(cal[2][0]), tc - t0, t1 - tc, n_hands, "time")
            if keep < done:
                done, stopped = keep, "time"
                u_steps, u_tside, prob = outcome_distribution(steps[:done], tside[:done],
                                                              cls[:done], c_n)
    del steps, tside
    t1 = time.perf_counter()
    est = DP_SECONDS * len(prob[0]) * rules.target ** rules.n_sides * c_n
    if on_solve is not None:
        on_solve(len(prob[0]), est)
    V, F, W, dmax = _solve_interruptibly(rules, (u_steps, u_tside, prob), nxt, done, n_hands,
                                         est)
    t2 = time.perf_counter()
    # a summary's simulation time is the run's own (its sessions'), not the read's
    sim_s = run_dir.compute_seconds() if run_dir is not None and not run_dir.compute else \
        t1 - t0
    return EquityTable(rules, pols, done, seed, by_side, V, u_steps, u_tside, prob, nxt,
                       F, W, dmax, len(prob[0]), sim_s, t2 - t1, n_hands, stopped)


# ------------------------------------------------------------------------------ disk cache
_TABLE_ARRAYS = ("V", "steps", "tside", "prob", "nxt", "F", "W")


def cache_dir() -> Path:
    """Where game-equity tables are cached: ``$CATCHTEN_CACHE_DIR`` if set, else
    ``$XDG_CACHE_HOME/catchten_sim`` or ``~/.cache/catchten_sim``."""
    env = os.environ.get("CATCHTEN_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "catchten_sim"


def _cache_path(rules: Rules, pols: tuple[Policy, ...], n_hands: int, seed: int) -> Path:
    key = json.dumps({"rules": rules.to_dict(), "policies": [p.label for p in pols],
                      "hands": n_hands, "seed": seed, "version": __version__},
                     sort_keys=True, default=str)
    return cache_dir() / f"equity-{hashlib.sha256(key.encode()).hexdigest()[:24]}.npz"


def cached_equity_table(rules: Rules, policies: Sequence[object] | object = "heuristic", *,
                        n_hands: int = 1_000_000, seed: int = 1, threads: int | None = None,
                        progress: Callable[[int, int], None] | None = None,
                        time_limit: float | None = None,
                        on_solve: Callable[[int, float], None] | None = None) -> EquityTable:
    """:func:`equity_table`, read from / written to the disk cache (:func:`cache_dir`),
    keyed by the rules, policies, ``n_hands``, ``seed`` and the package version. Only a
    complete table is cached; a cache that cannot be read or written is ignored."""
    _check_equity_rules(rules)
    pols = _policies(rules, policies)
    n_hands = check_count("hands", n_hands, max(100, 10 * rules.players), MAX_EQUITY_HANDS)
    seed = check_seed(seed)
    if threads is not None:             # checked on a cache hit too
        threads = check_threads(threads)
    path = _cache_path(rules, pols, n_hands, seed)
    try:
        with np.load(path, allow_pickle=False) as z:
            arr = {k: z[k] for k in _TABLE_ARRAYS}
            meta = z["meta"]
        run.notice(f"equity: read from the cache, {path} ({_size(path)})")
        return EquityTable(rules, pols, n_hands, seed, bool(meta[0]), arr["V"], arr["steps"],
                           arr["tside"], arr["prob"], arr["nxt"], arr["F"], arr["W"],
                           int(meta[1]), int(meta[2]), 0.0, 0.0, n_hands, "")
    except (OSError, KeyError, ValueError):
        pass
    eq = equity_table(rules, pols, n_hands=n_hands, seed=seed, threads=threads,
                      progress=progress, time_limit=time_limit, on_solve=on_solve)
    if not eq.partial:
        tmp = path.with_suffix(".tmp.npz")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(tmp, meta=np.array([int(eq.by_side), eq.dmax, eq.n_outcomes], np.int64),
                     **{k: getattr(eq, k) for k in _TABLE_ARRAYS})
            tmp.replace(path)
            run.notice(f"equity: table cached in {path} ({_size(path)}; read by this "
                       "command again and by advise --score; --no-cache neither reads nor "
                       "writes it)")
        except OSError:
            pass
        except KeyboardInterrupt:       # the table is whole: keep it, leave no half file
            tmp.unlink(missing_ok=True)
            run.notice("equity: Ctrl-C while writing the cache: the table is complete and "
                       "printed, but not cached")
    return eq


def _size(path: Path) -> str:
    """A file's size in MB (kB below 1 MB)."""
    n = path.stat().st_size
    return f"{n / 1e6:,.0f} MB" if n >= 1e6 else f"{n / 1e3:,.0f} kB"


def from_run_dir(run_dir: Any, **options: Any) -> EquityTable:
    """Finish (or, with ``run_dir.compute`` false, summarize) the equity run of a run
    directory; ``options``: ``threads``, ``scheduler``, ``workers``, ``progress``."""
    rd, kw = open_run(run_dir, ("equity",))
    kw.pop("kind")
    rules = kw.pop("rules")
    pols = kw.pop("policies")
    return equity_table(rules, pols, run_dir=rd, **kw, **options)


# ------------------------------------------------------------------------ game equity
EQUITY_HANDS = 200_000        # simulated deals behind the game-equity table advise builds
_EQUITY_CACHE: dict = {}


def game_equity_hook(info: InfoSet, policies: Sequence[Policy], *,
                     n_hands: int = EQUITY_HANDS, progress: Callable | None = None,
                     time_limit: float | None = None, seed: int = 1, threads: int | None = None
                     ) -> tuple[Callable[..., np.ndarray] | None, str]:
    """``(fn, why)``: ``fn`` maps outcome rows (…, ``rollout.n_out_cols``) to each side's
    P(winning the game) (float (…, n_sides)), or None with ``why`` it is not available.

    Uses the game-equity table (:func:`equity_table` from ``n_hands`` deals, cached by
    :func:`cached_equity_table`; ``progress(done, total)`` while it builds; a build cut by
    ``time_limit`` gives way to game rollouts where they apply, saying so): P(win) after this
    scoring unit = the table's ``p_win_after(score before the unit, the unit's count-out
    steps, dealer, set)``, which is exact when the unit decides the game and the table's
    value of the next state otherwise. With per-set scoring the unit is the current set
    (the points of the earlier sets of this hand are added to ``score`` first).
    Rules the table does not support (four or more sides; three without
    ``tie=count_out``): game rollouts (:func:`catchten_sim.gamerollouts.rollout_hook`).
    ``fn(rows, first)``: ``first`` numbers the batch's first determinization (the
    rollouts' games); ``fn.method`` is ``"exact"`` or ``"rollouts"``.
    Not available: no ``score``; ``game_at_once`` (needs the order of the tricks).
    """
    r = info.rules
    if info.score is None:
        return None, "P(win) needs the game score (score)"
    if r.game_at_once:
        return None, "P(win) not available with game_at_once"
    if Seating.of(policies).any_driven:
        return None, "P(win) not available with pimc rollouts (no game-equity table for pimc)"
    if exact_problem(r) is not None:
        return rollout_hook(info, policies, seed=seed, threads=threads)
    key = (repr(sorted(r.to_dict().items(), key=str)), tuple(int(p) for p in policies), n_hands)
    table = _EQUITY_CACHE.get(key)
    why = ""
    if table is None:
        try:
            table = cached_equity_table(r, tuple(policies), n_hands=n_hands, seed=1,
                                        progress=progress, time_limit=time_limit)
        except CatchTenError as exc:
            return None, f"P(win) not available: {exc.line()}"
        if table.stopped == "interrupted":      # Ctrl-C while building: nothing to advise yet
            raise KeyboardInterrupt
        if table.n_hands < n_hands:
            fn_r, _ = rollout_hook(info, policies, seed=seed, threads=threads)
            if fn_r is not None:    # a cut table errs more than its use says: play games out
                return fn_r, (f"P(win) by game rollouts (the table of {n_hands:,} deals "
                              f"takes longer than --time: `catchten equity` caches it)")
            why = (f"P(win) from a game-equity table of {table.n_hands:,} deals (of "
                   f"{n_hands:,}: the --time limit); run `catchten equity` with these rules "
                   f"and --hands {n_hands} once to cache the full table")
        else:
            _EQUITY_CACHE[key] = table
    unit = info.set_index if r.per_set_scoring else 0
    before = list(info.score)
    for u in range(unit):                     # earlier sets of this hand, already scored
        for sd in range(r.n_sides):
            before[sd] += info.cap_honours[u][sd] + card_points(r, info.cap_cards[u][sd])
    if max(before) >= table.target:
        return None, "P(win) not available: the game was decided before this set"
    ns = r.n_sides
    base = KR.N_R_FIXED + ns * KR.R_PER_SIDE
    dealer = info.dealer

    def fn(rows: np.ndarray, first: int = 0) -> np.ndarray:
        st = np.ascontiguousarray(rows[..., base:base + ns * KR.N_STEPS]).reshape(
            -1, ns * KR.N_STEPS)
        uniq, inv = np.unique(st, axis=0, return_inverse=True)
        vals = np.array([table.p_win_after(before, u.reshape(ns, KR.N_STEPS).T, dealer, unit)
                         for u in uniq], dtype=np.float64)
        return vals[inv.reshape(-1)].reshape(rows.shape[:-1] + (ns,))

    fn.method = "exact"       # type: ignore[attr-defined]
    return fn, why


def default_equity_hands(rules: Rules) -> int:
    """Deals an equity table is estimated from by default: 1,000,000 with two sides; with
    three sides (a table of 41^3 states) 200,000, or 50,000 with six-card sets."""
    return (1_000_000 if rules.n_sides == 2 else
            50_000 if rules.n_sets > 1 else 200_000)


def start_p_win(eq: EquityTable) -> list[dict[str, Any]]:
    """Each side's P(win) from 0-0, by who deals first: ``[{"dealer_seat": c, "p_win":
    [...]}, ...]`` (by side when the table is kept by side, else by seat)."""
    ns = eq.rules.n_sides
    return [{"dealer_seat": c, "p_win": list(eq.p_win((0,) * ns, c))}
            for c in range(eq.rules.players if not eq.by_side else ns)]


def exact_problem(rules: Rules) -> str | None:
    """Why the exact table cannot be built for these rules (None: it can)."""
    try:
        _check_equity_rules(rules)
    except CatchTenError as exc:
        return exc.line()
    return None


def equity_states(rules: Rules, policies: Sequence[object] | object,
                  states: Sequence[tuple[Sequence[int], int]], *, method: str | None = None,
                  n_games: int = ROLLOUT_GAMES, n_hands: int | None = None, seed: int = 1,
                  threads: int | None = None,
                  progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Each side's P(win) at the named ``(scores, dealer)`` states, JSON-ready:
    ``{"states": [{"scores", "dealer", "p_win", "se", "method"}], ...}``.

    ``method``: ``exact`` (the DP table, 2 sides or 3 with ``tie=count_out``; its ``se``
    is null: the table is exact for the deal outcomes it was built from, whose sampling
    error it does not estimate), ``rollouts`` (:func:`game_rollouts`, ``n_games`` per
    state), or None: exact where it can be, else rollouts.

    Raises
    ------
    CatchTenError
        Bad scores, dealer, method, or exact asked where it cannot be.
    """
    pols = _policies(rules, policies)
    rows = state_rows(rules, states)
    ns = rules.n_sides
    why_not = exact_problem(rules)
    if method is None:
        method = "exact" if why_not is None else "rollouts"
    method = str(method).strip().lower()
    if method not in METHODS:
        raise unknown_name("method", "method", method, METHODS)
    out: dict[str, Any] = {"rules": rules.to_dict(), "policies": [p.label for p in pols],
                           "seed": seed, "target": rules.target, "tie": rules.tie,
                           "method": method}
    t0 = time.perf_counter()
    if method == "exact":
        if why_not is not None:
            raise CatchTenError("method", "exact not available",
                                f"{ns} sides, tie={rules.tie}: the exact table is for 2 sides, "
                                "or 3 with tie=count_out (use --method rollouts)")
        hands = default_equity_hands(rules) if n_hands is None else n_hands
        eq = cached_equity_table(rules, pols, n_hands=hands, seed=seed, threads=threads,
                                 progress=progress)
        out["hands"] = eq.n_hands
        out["states"] = [{"scores": [int(x) for x in r[:ns]], "dealer": int(r[ns]),
                          "p_win": list(eq.p_win(tuple(int(x) for x in r[:ns]), int(r[ns]))),
                          "se": [None] * ns, "method": "exact"} for r in rows]
    else:
        ro = game_rollouts(rules, pols, [(r[:ns].tolist(), int(r[ns])) for r in rows],
                           n_games=n_games, seed=seed, threads=threads)
        out["games"] = ro.n_games
        out["threads"] = ro.threads
        p, se = ro.p_win, ro.se
        out["states"] = [{"scores": [int(x) for x in r[:ns]], "dealer": int(r[ns]),
                          "p_win": [float(x) for x in p[i]], "se": [float(x) for x in se[i]],
                          "method": "rollouts"} for i, r in enumerate(rows)]
        if ro.wins[:, -1].any():
            out["unfinished"] = int(ro.wins[:, -1].sum())
    out["elapsed_s"] = round(time.perf_counter() - t0, 3)
    return out
