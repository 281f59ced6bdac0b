"""Whole games to the target, and the game-equity table P(win | scores, who deals).

>>> from catchten_sim import Rules
>>> from catchten_sim.games import simulate_games, equity_table
>>> g = simulate_games(Rules("foster", 4), "heuristic", n_games=1_000, seed=1)
>>> g.to_frame()[["side", "p_win"]].head(2)
   side  p_win
0     0  0.502
1     1  0.498
>>> eq = equity_table(Rules("foster", 4), "heuristic", n_hands=20_000, seed=1)
>>> [round(p, 2) for p in eq.p_win((35, 30), dealer=3)]
[0.54, 0.46]

Games (docs/rules.md §1, §3, §7.9-§7.13, with the readings of :mod:`catchten_sim.records`)
----------------------------------------------------------------------------------
Hands are dealt in turn (the deal passes left), scores carry over, and the winner is
decided by the rules' ``tie`` (``count_out`` in the order of §7.10, ``higher_total``,
``replay``) and ``game_at_once``; with six-card sets and per-set scoring the target is
checked after every set. A revoke never happens in simulation. Game ``g``'s first dealer
is seat ``g % n`` (``first_dealer="rotate"``, the default) or drawn at random
(``"random"``); hand ``h`` of game ``g`` dealt by seat ``d`` is deal number
``(g * 4096 + h) * n + d`` of the seed (``catchten_sim.play.deal(rules, seed=seed,
index=...)`` deals it, and ``play`` plays it on from its stream), so the results depend
on the seed only, never on the number of threads.

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
more sides: refused (41**4 states times the outcomes is too big for the DP; use
``simulate_games``).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Sequence

import numpy as np

from ._lazy import pandas as pd

if TYPE_CHECKING:
    import pandas
from ._kernels import engine as K
from ._kernels import games as G
from .aggregate import mean_se, wilson
from .errors import CatchTenError
from .pimc import kernel_policies
from .policies import Policy
from .rules import COUNT_OUT_STEPS, Rules
from . import runner
from .simulate import _check_count, max_threads, MAX_SEED

__all__ = ["simulate_games", "GameSimulationResult", "equity_table", "cached_equity_table",
           "EquityTable",
           "FIRST_DEALER_MODES", "HOW_NAMES"]

FIRST_DEALER_MODES = ("rotate", "random")
HOW_NAMES = ("none", "reached", "count_out", "higher_total", "unfinished")
GAME_CHUNK = 1 << 15


# ------------------------------------------------------------------------------ plumbing
def _policies(rules: Rules, policies: Sequence[object] | object) -> tuple[Policy, ...]:
    return Policy.per_seat(policies, rules.players)


def unit_shape(rules: Rules, compact: bool = True) -> tuple[int, int]:
    """``(U, S)``: scoring units per deal and rows of a unit's step matrix."""
    per_set = rules.per_set_scoring
    n_units = rules.n_sets if per_set else 1
    if not rules.game_at_once:
        return n_units, G.N_STEPS
    tpu = rules.set_size if per_set else rules.n_sets * rules.set_size
    t = rules.tables()
    deck = np.asarray(t.deck)
    n_hon = int(max((t.honours[tr, deck] > 0).sum() for tr in range(5)))
    return n_units, (min(tpu, n_hon + 1) if compact else tpu) + 1


def _gscratch(rules: Rules, n_units: int, n_rows: int) -> tuple:
    ns = rules.n_sides
    n = rules.players
    tricks = rules.n_sets * rules.set_size
    running, cur, flags, steps, tside, ll, lc, lw = K.padded_zeros(
        [(ns,), (ns,), (1,), (n_units, n_rows, ns), (n_units, n_rows), (tricks,),
         (tricks, n), (tricks,)])
    return (running, cur, flags, steps, tside, (ll, lc, lw))


def _f(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


# ------------------------------------------------------------------------------ games
@dataclass(frozen=True)
class GameSimulationResult:
    """Whole games simulated to the target (every estimate with its sample size).

    Attributes
    ----------
    rules, policies, seed
    n_games : int
    first_dealer : str, ``rotate`` (game g: seat g % n), ``random`` or ``seat k`` (fixed)
    start_scores : tuple, each side's score at the start of every game
    wins : int64 (n, n_sides): games won by each side, by the seat that dealt first
    unfinished : int, games that hit the hand limit (4096 hands; never in practice)
    hands_hist : int64: games by number of hands (index = hands)
    how : int64 (5,): games by how they were decided (``HOW_NAMES``)
    count_out_steps : int64 (8,): games decided by the count-out order, by step
        (``COUNT_OUT_STEPS``)
    unit_hist : int64 (U,): the scoring unit (set) of the deciding hand
    replays : int, ties carried into another unit; games_with_replay : int
    score_sum, score_sumsq : float64 (n_sides,): final running totals (at the moment of
        the win with ``game_at_once``)
    elapsed_s, threads
    compile_s : float, seconds of ``elapsed_s`` spent compiling the engine (a cold cache)
    """

    rules: Rules
    policies: tuple[Policy, ...]
    seed: int
    n_games: int
    first_dealer: str
    start_scores: tuple[int, ...]
    wins: np.ndarray = field(repr=False)
    unfinished: int = 0
    hands_hist: Any = field(repr=False, default=None)
    how: Any = field(repr=False, default=None)
    count_out_steps: Any = field(repr=False, default=None)
    unit_hist: Any = field(repr=False, default=None)
    replays: int = 0
    games_with_replay: int = 0
    score_sum: Any = field(repr=False, default=None)
    score_sumsq: Any = field(repr=False, default=None)
    elapsed_s: float = 0.0
    threads: int = 1
    interrupted: bool = False
    #: where the games ran: the executor's ``describe()``; empty when read from a run
    #: directory
    executor: str = ""
    compile_s: float = 0.0

    # ---------------------------------------------------------------- views
    def p_win(self, side: int, first_dealer_side: int | None = None) -> tuple[float, float, float]:
        """``(p, lo, hi)``: P(side wins) with its 95% Wilson interval, over all games or
        those whose first dealer is on ``first_dealer_side``."""
        rows = self._rows(first_dealer_side)
        k = int(self.wins[rows, side].sum())
        n = int(self.wins[rows].sum()) + (self.unfinished if first_dealer_side is None else 0)
        lo, hi = wilson(k, n)
        return (k / n if n else math.nan, lo, hi)

    def _rows(self, first_dealer_side: int | None) -> list[int]:
        n = self.rules.players
        if first_dealer_side is None:
            return list(range(n))
        return [s for s in range(n) if self.rules.side_of(s) == first_dealer_side]

    def to_frame(self) -> pandas.DataFrame:
        """P(win) of each side by who dealt first: one row per (first dealer, side), the
        first dealer being a seat, a side (``seat`` = -1) or all games (both -1).

        Columns: first_dealer_seat, first_dealer_side, side, games, wins, p_win, lo, hi.
        """
        rows = []
        r = self.rules
        groups: list[tuple[int, int, list[int]]] = [(-1, -1, list(range(r.players)))]
        groups += [(-1, sd, self._rows(sd)) for sd in range(r.n_sides)]
        if r.players != r.n_sides:
            groups += [(s, r.side_of(s), [s]) for s in range(r.players)]
        else:
            groups = groups[:1] + [(s, s, [s]) for s in range(r.players)]
        for seat, sd, seats in groups:
            n = int(self.wins[seats].sum())
            for side in range(r.n_sides):
                k = int(self.wins[seats, side].sum())
                lo, hi = wilson(k, n)
                rows.append({"first_dealer_seat": seat, "first_dealer_side": sd, "side": side,
                             "games": n, "wins": k, "p_win": k / n if n else math.nan,
                             "lo": lo, "hi": hi})
        return pd.DataFrame(rows)

    def hands_frame(self) -> pandas.DataFrame:
        """The distribution of hands per game: hands, games, share."""
        h = self.hands_hist
        idx = np.nonzero(h)[0]
        return pd.DataFrame({"hands": idx, "games": h[idx], "share": h[idx] / h.sum()})

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready result."""
        r = self.rules
        n_played = self.n_games
        frame = self.to_frame()

        def entries(sub: pandas.DataFrame) -> list[dict]:
            return [{"side": int(x.side), "seats": r.seats_of(int(x.side)), "wins": int(x.wins),
                     "p_win": _f(x.p_win), "wilson95": [_f(x.lo), _f(x.hi)]}
                    for x in sub.itertuples()]

        overall = frame[(frame.first_dealer_seat == -1) & (frame.first_dealer_side == -1)]
        by_side = []
        for sd in range(r.n_sides):
            sub = frame[(frame.first_dealer_seat == -1) & (frame.first_dealer_side == sd)]
            if r.players == r.n_sides:
                sub = frame[frame.first_dealer_seat == sd]
            by_side.append({"first_dealer_side": sd, "games": int(sub.games.iloc[0]),
                            "sides": entries(sub)})
        by_seat = []
        for s in range(r.players):
            sub = frame[frame.first_dealer_seat == s]
            if len(sub):
                by_seat.append({"first_dealer_seat": s, "games": int(sub.games.iloc[0]),
                                "sides": entries(sub)})
        hands = self.hands_hist
        tot = hands.sum()
        mean_h = float((np.arange(len(hands)) * hands).sum() / tot) if tot else math.nan
        co = int(self.how[G.HOW_COUNT_OUT])
        scores = []
        for sd in range(r.n_sides):
            m, se = mean_se(float(self.score_sum[sd]), float(self.score_sumsq[sd]), n_played)
            scores.append({"side": sd, "mean": _f(m),
                           "se": _f(se) if n_played > 1 else None})
        return {
            "rules": r.to_dict(),
            "policies": {"seats": [p.label for p in self.policies]},
            "seed": self.seed,
            "games": n_played,
            "first_dealer": self.first_dealer,
            "start_scores": list(self.start_scores),
            "target": r.target,
            "tie": r.tie,
            "game_at_once": r.game_at_once,
            "p_win": entries(overall),
            "p_win_by_first_dealer_side": by_side,
            "p_win_by_first_dealer_seat": by_seat if r.players != r.n_sides else [],
            "hands_per_game": {"mean": _f(mean_h),
                               "hist": {str(int(k)): int(hands[k]) for k in np.nonzero(hands)[0]}},
            "how": {name: int(self.how[i]) for i, name in enumerate(HOW_NAMES) if i > 0},
            "count_out": {"games": co, "share": _f(co / n_played),
                          "wilson95": [_f(x) for x in wilson(co, n_played)],
                          "by_step": {COUNT_OUT_STEPS[j]: int(self.count_out_steps[j])
                                      for j in range(len(COUNT_OUT_STEPS))
                                      if self.count_out_steps[j]}},
            "deciding_set": ({str(u + 1): int(self.unit_hist[u])
                              for u in range(len(self.unit_hist))}
                             if len(self.unit_hist) > 1 else None),
            "ties_carried": {"units": self.replays, "games": self.games_with_replay},
            "final_scores": scores,
            "unfinished": self.unfinished,
            "threads": self.threads,
            "elapsed_s": round(self.elapsed_s, 3),
            "compile_s": round(self.compile_s, 3),
        }

    def to_text(self) -> str:
        """A short plain-text summary (what ``catchten simulate --games`` prints)."""
        d = self.to_dict()
        r = self.rules
        lines = [f"{r.label()}: {self.n_games:,} game{'s' if self.n_games != 1 else ''} "
                 f"to {r.target}, tie={r.tie}"
                 + (", game_at_once" if d["game_at_once"] else "")
                 + f"; policies {', '.join(d['policies']['seats'])}; seed {self.seed}",
                 f"first dealer: {self.first_dealer}"
                 + (" (game g: seat g mod n)" if self.first_dealer == "rotate" else "")
                 + (f"; start scores {list(self.start_scores)}" if any(self.start_scores) else ""),
                 "", "P(win), 95% Wilson interval:"]

        def fmt(e: dict) -> str:
            lo, hi = e["wilson95"]
            if e["p_win"] is None:      # no game in this group (e.g. one game in all)
                return f"side {e['side']}  no games"
            return f"side {e['side']} {100 * e['p_win']:5.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}]"

        lines.append("  all games            " + "   ".join(fmt(e) for e in d["p_win"]))
        for b in d["p_win_by_first_dealer_side"]:
            lines.append(f"  side {b['first_dealer_side']} dealt first   "
                         + "   ".join(fmt(e) for e in b["sides"]))
        for b in d["p_win_by_first_dealer_seat"]:
            lines.append(f"  seat {b['first_dealer_seat']} dealt first   "
                         + "   ".join(fmt(e) for e in b["sides"]))
        hist = d["hands_per_game"]["hist"]
        lines += ["", f"hands per game: mean {d['hands_per_game']['mean']:.2f}; "
                  + ", ".join(f"{k}: {100 * v / self.n_games:.1f}%" for k, v in hist.items())]
        how = d["how"]
        lines.append("decided: " + ", ".join(f"{k} {v:,}" for k, v in how.items() if v))
        co = d["count_out"]
        lo, hi = co["wilson95"]
        lines.append(f"count-out order decided {co['games']:,} games "
                     f"({100 * co['share']:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}])"
                     + (": by step " + ", ".join(f"{k} {v:,}" for k, v in co["by_step"].items())
                        if co["by_step"] else ""))
        if d["deciding_set"]:
            lines.append("deciding set: " + ", ".join(f"set {k}: {v:,}"
                                                      for k, v in d["deciding_set"].items()))
        if d["ties_carried"]["units"]:
            lines.append(f"ties carried into another unit: {d['ties_carried']['units']:,} "
                         f"(in {d['ties_carried']['games']:,} games)")
        lines.append("final scores: " + ", ".join(
            f"side {e['side']} {e['mean']:.2f}"
            + (f" (se {e['se']:.2f})" if e["se"] is not None else "") for e in d["final_scores"]))
        from .compile_notice import compiling_note
        cs = compiling_note(self.compile_s)
        lines.append(f"{self.elapsed_s:.2f} s on {self.executor}{cs}"
                     if self.threads and self.executor.startswith("Dask") else
                     f"{self.elapsed_s:.2f} s on {self.threads} thread(s){cs}" if self.threads
                     else "read from a run directory")
        return "\n".join(lines)


class _GamesTask:
    """Whole games as a run-engine task (:mod:`catchten_sim.runner`): games ``first …
    first+count-1`` give one int64 row each (columns ``_kernels.games.G_*``). Picklable
    (for Dask): the rules' tables are rebuilt from the rules on first use in a process."""

    def __init__(self, rules: Rules, tab, pol_arr, seed_u, mode, n_units, n_rows, ncols):
        self.rules, self.tab, self.pol_arr, self.seed_u = rules, tab, pol_arr, seed_u
        self.mode, self.n_units, self.n_rows, self.ncols = mode, n_units, n_rows, ncols
        self.key = "games-" + runner.job_key({"rules": rules.to_dict(), "seed": int(seed_u),
                                              "pols": pol_arr.tolist(), "mode": repr(mode)})

    def __getstate__(self) -> dict:
        return {**self.__dict__, "rules": self.rules.to_dict(), "tab": None}

    def __setstate__(self, state: dict) -> None:
        r = state["rules"]
        self.__dict__.update(state, rules=Rules(r["preset"], r["players"], r["variants"]))

    def _tab(self):
        if self.tab is None:
            self.tab = self.rules.tables()
        return self.tab

    def scratch(self):
        return K.scratch(self._tab()), _gscratch(self.rules, self.n_units, self.n_rows)

    def run(self, first: int, count: int, scr) -> Any:
        rows = np.zeros((count, self.ncols), dtype=np.int64)
        G.run_games(self._tab(), scr[0], scr[1], self.pol_arr, self.seed_u, np.int64(first),
                    np.int64(count), self.mode, rows)
        return rows

    def combine(self, parts: list) -> Any:
        return np.concatenate(parts)

    def to_array(self, partial: Any) -> np.ndarray:
        return np.asarray(partial, np.int64).ravel()

    def from_array(self, a: np.ndarray) -> Any:
        if a.size % self.ncols:
            raise CatchTenError("run-dir", "chunk file does not fit the plan",
                                f"{a.size} values, not rows of {self.ncols}")
        return a.reshape(-1, self.ncols)

    def warm(self) -> None:
        self.run(0, 1, self.scratch())


def simulate_games(rules: Rules, policies: Sequence[object] | object = "heuristic", *,
                   n_games: int = 10_000, seed: int = 1, threads: int | None = None,
                   first_dealer: str | int = "rotate",
                   start_scores: Sequence[int] | None = None,
                   chunk: int = GAME_CHUNK,
                   on_rows: Callable[[np.ndarray, int], None] | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   run_dir: Any = None, scheduler: str | None = None,
                   workers: int | None = None) -> GameSimulationResult:
    """Play ``n_games`` whole games to the target and summarise them.

    Parameters
    ----------
    rules : Rules
    policies : a policy for every seat, or one per seat.
    n_games : int (>= 1)
    seed : int, 0 … 2**64-1. The result depends only on it (and the rules, policies,
        first-dealer mode and start scores), never on ``threads``.
    first_dealer : ``"rotate"`` (game g's first dealer is seat g % n), ``"random"``, or a
        seat number (every game starts with that dealer).
    start_scores : each side's score at the start (default 0s; all below the target).
    on_rows : callable(rows, first_game), optional
        Receives each chunk of per-game rows (int64; columns ``_kernels.games.G_*``: first
        dealer, winner, how, count-out step, hands, ties carried, deciding unit, then the
        final running total of every side). Not with ``run_dir``.
    progress : callable(done, n_games), optional, after every chunk.
    run_dir, scheduler, workers : as :func:`catchten_sim.simulate.simulate` (kind
        ``games``): a run directory of the games' rows, continued by the same call or
        ``catchten resume DIR``; a Dask cluster. The numbers do not depend on them.

    Returns
    -------
    GameSimulationResult

    Raises
    ------
    CatchTenError
        Bad counts, seed, threads, policy, first dealer or start scores.
    """
    n_games = _check_count("games", n_games, 1)
    seed = _check_count("seed", seed, 0, MAX_SEED)
    used = max_threads() if threads is None else _check_count("threads", threads, 1, 1024)
    pols = _policies(rules, policies)
    n = rules.players
    ns = rules.n_sides
    if isinstance(first_dealer, str) and first_dealer.strip().lower() in FIRST_DEALER_MODES:
        mode, fixed, label = FIRST_DEALER_MODES.index(first_dealer.strip().lower()), 0, \
            first_dealer.strip().lower()
    elif isinstance(first_dealer, (int, np.integer)) and not isinstance(first_dealer, bool) \
            and 0 <= int(first_dealer) < n:
        mode, fixed, label = 2, int(first_dealer), f"seat {int(first_dealer)}"
    else:
        raise CatchTenError("first-dealer", "bad value",
                            f"{first_dealer!r} (rotate, random or a seat 0 … {n - 1})")
    start = np.zeros(ns, dtype=np.int64)
    if start_scores is not None:
        problem = rules.score_problem(start_scores)
        if problem:
            raise CatchTenError("score", "bad score", problem)
        start[:] = list(start_scores)
    at_once = rules.game_at_once
    compact = not (at_once and ns > 2 and rules.tie != "count_out")
    n_units, n_rows = unit_shape(rules, compact)
    tab = rules.tables()
    pol_arr = kernel_policies(pols, "the game simulations")
    chunk = _check_count("chunk", chunk, 1)
    task = _GamesTask(rules, tab, pol_arr, np.uint64(seed),
                      (np.int64(mode), np.int64(fixed), at_once, compact, start),
                      n_units, n_rows, G.N_GCOLS + ns)

    wins = np.zeros((n, ns), dtype=np.int64)
    hands_hist = np.zeros(G.MAX_HANDS + 1, dtype=np.int64)
    how = np.zeros(len(HOW_NAMES), dtype=np.int64)
    co_steps = np.zeros(len(COUNT_OUT_STEPS), dtype=np.int64)
    unit_hist = np.zeros(n_units, dtype=np.int64)
    s_sum = np.zeros(ns)
    s_sq = np.zeros(ns)
    tally = {"replays": 0, "games_rep": 0, "unfinished": 0}

    runner.check_executor_options(scheduler, workers)      # before a run directory is made
    rd = None
    if run_dir is not None:
        if on_rows is not None:
            raise CatchTenError("out", "not with --run-dir", "per-game rows come in game order "
                                "from a run without a run directory only")
        rd = runner.RunDir.create_or_open(run_dir, {
            "kind": "games", "rules": rules.to_dict(), "policies": [p.label for p in pols],
            "seed": seed, "deals": n_games, "chunk": chunk, "first_dealer": label,
            "start_scores": [int(x) for x in start],
            "plan": {"chunks": len(runner.chunk_plan(n_games, chunk, marks=False)) - 1,
                     "ends": "multiples of chunk, and the last game"}})

    def fold(c, rows: np.ndarray) -> None:
        # integer counts, and sums of whole scores (exact in float64): any chunk order
        w = rows[:, G.G_WINNER]
        fin = w >= 0
        tally["unfinished"] += int((~fin).sum())
        np.add.at(wins, (rows[fin, G.G_FIRST_DEALER], w[fin]), 1)
        nh = len(hands_hist)
        hands_hist[:] += np.bincount(rows[:, G.G_HANDS], minlength=nh)[:nh]
        how[:] += np.bincount(rows[:, G.G_HOW], minlength=len(how))[:len(how)]
        co = rows[rows[:, G.G_HOW] == G.HOW_COUNT_OUT, G.G_STEP]
        co_steps[:] += np.bincount(co, minlength=len(co_steps))[:len(co_steps)]
        uw = rows[fin, G.G_UNIT]
        unit_hist[:] += np.bincount(uw, minlength=n_units)[:n_units]
        sc = rows[:, G.G_RUNNING:G.G_RUNNING + ns].astype(np.float64)
        s_sum[:] += sc.sum(axis=0)
        s_sq[:] += (sc * sc).sum(axis=0)
        if on_rows is not None:
            on_rows(rows, c.first)
        tally["replays"] += int(rows[:, G.G_REPLAYS].sum())
        tally["games_rep"] += int((rows[:, G.G_REPLAYS] > 0).sum())

    executor = runner.make_executor(1) if rd is not None and not rd.compute else \
        runner.make_executor(used, scheduler, workers)
    try:
        run = runner.run(task, runner.chunk_plan(n_games, chunk, marks=False), executor, fold,
                         run_dir=rd, progress=progress)
    finally:
        executor.close()
    if not run.done:
        raise CatchTenError("run-dir", "no finished chunk yet", str(rd.path) if rd else "")
    used = run.threads if rd is None or rd.compute else 0
    interrupted = run.interrupted or run.items < n_games
    done, elapsed = run.items, run.elapsed_s
    replays, games_rep, unfinished = tally["replays"], tally["games_rep"], tally["unfinished"]
    last = int(np.nonzero(hands_hist)[0].max()) if hands_hist.any() else 0
    return GameSimulationResult(rules, pols, seed, done, label, tuple(int(x) for x in start),
                                wins, unfinished, hands_hist[:last + 1].copy(), how, co_steps,
                                unit_hist, replays, games_rep, s_sum, s_sq, elapsed, used,
                                interrupted, executor.describe() if used else "",
                                run.compile_s if used else 0.0)


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
    :class:`catchten_sim.runner.RunDir` whose chunks are read first and where every new
    chunk is written (then ``m`` is the deals of the chunks done without a gap from the
    first); ``scheduler``/``workers``: a Dask cluster (the same outcomes)."""
    used = max_threads() if threads is None else threads
    pols = _policies(rules, policies)
    at_once = rules.game_at_once
    n_units, n_rows = unit_shape(rules, True)
    ns = rules.n_sides
    tab = rules.tables()
    pol_arr = kernel_policies(pols, "the game simulations")
    steps = np.zeros((n_hands, n_units, n_rows, ns), dtype=np.int8)
    tside = np.zeros((n_hands, n_units, n_rows), dtype=np.int8)
    task = _SamplesTask(rules, tab, pol_arr, np.uint64(seed), at_once, n_units, n_rows)

    def fold(c, part) -> None:
        steps[c.first:c.first + c.count], tside[c.first:c.first + c.count] = part

    edges = runner.chunk_plan(n_hands, chunk, marks=False)
    executor = runner.make_executor(1) if run_dir is not None and not run_dir.compute else \
        runner.make_executor(used, scheduler, workers)
    try:
        out = runner.run(task, edges, executor, fold, progress=progress, run_dir=run_dir,
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
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) \
                or not 0 <= int(dealer) < n:
            shown = str(dealer).lower() if isinstance(dealer, bool) else repr(dealer)
            raise CatchTenError("dealer", "out of range", f"dealer={shown} (a seat 0 … {n - 1})")
        return int(dealer) % self.n_sides if self.by_side else int(dealer)

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
                             np.int64(self.target), np.int64(tie),
                             self.rules.game_at_once, code, after)
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
        if isinstance(set_index, bool) or not isinstance(set_index, (int, np.integer)) \
                or not 0 <= int(set_index) < U:
            raise CatchTenError("set", "out of range",
                                f"set_index={set_index!r} (0 … {U - 1}: scoring units per deal)")
        return int(set_index)

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
        from .paths import ensure_dir
        ensure_dir(p.parent if str(p.parent) else ".")   # only the last level is created
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
    if ns == 2:
        V = G.equity_two_sides(u_steps, u_tside, *grp, nxt, np.int64(T), np.int64(tie),
                               at_once, F, W, np.int64(dmax))
    else:
        V = G.equity_three_sides(u_steps, u_tside, *grp, nxt, np.int64(T), at_once)
    return V, F, W, dmax


MAX_EQUITY_HANDS = 20_000_000     # the per-deal outcomes are held in memory (~20 bytes each)
DP_SECONDS = 1e-8                 # rough DP cost per (distinct outcome x score state x class)


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
    estimated seconds)`` is called before the DP (which cannot be interrupted).

    Raises
    ------
    CatchTenError
        Four or more sides, three sides without ``tie=count_out``, bad counts.
    """
    _check_equity_rules(rules)
    pols = _policies(rules, policies)
    by_side, c_n, nxt = _classes(rules, pols)
    n_hands = _check_count("hands", n_hands, max(100, 10 * rules.players), MAX_EQUITY_HANDS)
    seed = _check_count("seed", seed, 0, MAX_SEED)
    if threads is not None:
        threads = _check_count("threads", threads, 1, 1024)
    chunk = _check_count("chunk", chunk, 1)
    t0 = time.perf_counter()
    deadline = None if time_limit is None else t0 + 0.4 * time_limit
    runner.check_executor_options(scheduler, workers)      # before a run directory is made
    if run_dir is not None:
        run_dir = runner.RunDir.create_or_open(run_dir, {
            "kind": "equity", "rules": rules.to_dict(), "policies": [p.label for p in pols],
            "seed": seed, "deals": n_hands, "chunk": chunk,
            "plan": {"chunks": len(runner.chunk_plan(n_hands, chunk, marks=False)) - 1,
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
    if on_solve is not None:
        on_solve(len(prob[0]), DP_SECONDS * len(prob[0]) * rules.target ** rules.n_sides * c_n)
    V, F, W, dmax = solve_equity(rules, u_steps, u_tside, prob, nxt)
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
    import os
    env = os.environ.get("CATCHTEN_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "catchten_sim"


def _cache_path(rules: Rules, pols: tuple[Policy, ...], n_hands: int, seed: int) -> Path:
    import hashlib
    import json
    from . import __version__
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
    n_hands = _check_count("hands", n_hands, max(100, 10 * rules.players), MAX_EQUITY_HANDS)
    seed = _check_count("seed", seed, 0, MAX_SEED)
    if threads is not None:             # checked on a cache hit too
        threads = _check_count("threads", threads, 1, 1024)
    path = _cache_path(rules, pols, n_hands, seed)
    try:
        with np.load(path, allow_pickle=False) as z:
            arr = {k: z[k] for k in _TABLE_ARRAYS}
            meta = z["meta"]
        return EquityTable(rules, pols, n_hands, seed, bool(meta[0]), arr["V"], arr["steps"],
                           arr["tside"], arr["prob"], arr["nxt"], arr["F"], arr["W"],
                           int(meta[1]), int(meta[2]), 0.0, 0.0, n_hands, "")
    except (OSError, KeyError, ValueError):
        pass
    eq = equity_table(rules, pols, n_hands=n_hands, seed=seed, threads=threads,
                      progress=progress, time_limit=time_limit, on_solve=on_solve)
    if not eq.partial:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, meta=np.array([int(eq.by_side), eq.dmax, eq.n_outcomes], np.int64),
                     **{k: getattr(eq, k) for k in _TABLE_ARRAYS})
            tmp.replace(path)
        except OSError:
            pass
    return eq


def open_run(run_dir: Any) -> tuple[runner.RunDir, dict[str, Any]]:
    """A games or equity run directory and the arguments of :func:`simulate_games` /
    :func:`equity_table` that made it (``kind`` among them).

    Raises
    ------
    CatchTenError
        Not a run directory, another version, another kind, or a bad manifest.
    """
    def parse(m: dict[str, Any]) -> dict[str, Any]:
        kw: dict[str, Any] = {"kind": m["kind"], "rules": runner.manifest_rules(m),
                              "policies": [Policy.parse(p) for p in m["policies"]],
                              "seed": int(m["seed"]), "chunk": int(m["chunk"])}
        if m["kind"] == "games":
            fd = str(m["first_dealer"])
            kw.update(n_games=int(m["deals"]), start_scores=[int(x) for x in m["start_scores"]],
                      first_dealer=int(fd.split()[1]) if fd.startswith("seat ") else fd)
        else:
            kw.update(n_hands=int(m["deals"]), outputs=m.get("outputs"))
        return kw

    return runner.open_of_kind(run_dir, ("games", "equity"), "games or equity", parse)


def from_run_dir(run_dir: Any, **options: Any) -> GameSimulationResult | EquityTable:
    """Finish (or, with ``run_dir.compute`` false, summarize) the games or equity run of a
    run directory; ``options``: ``threads``, ``scheduler``, ``workers``, ``progress``."""
    rd, kw = open_run(run_dir)
    kind = kw.pop("kind")
    rules = kw.pop("rules")
    pols = kw.pop("policies")
    if kind == "games":
        return simulate_games(rules, pols, run_dir=rd, **kw, **options)
    return equity_table(rules, pols, run_dir=rd, **kw, **options)
