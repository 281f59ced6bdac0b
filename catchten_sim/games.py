"""Whole games to the target.

>>> from catchten_sim import Rules
>>> from catchten_sim.games import simulate_games
>>> g = simulate_games(Rules("foster", 4), "heuristic", n_games=1_000, seed=1)
>>> g.to_frame()[["side", "p_win"]].head(2)
   side  p_win
0     0  0.502
1     1  0.498

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

The game-equity table built on these games is :mod:`catchten_sim.equity`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Sequence

import numpy as np

from ._lazy import pandas as pd

if TYPE_CHECKING:
    import pandas
from ._kernels import engine as K
from ._kernels import games as G
from .aggregate import json_number, mean_se, wilson
from .compile_notice import compiling_note
from .errors import CatchTenError, described
from .policies import Policy, Seating
from .rules import COUNT_OUT_STEPS, Rules
from . import run
from .checks import check_count, check_seed, check_threads, max_threads

__all__ = ["simulate_games", "GameSimulationResult", "FIRST_DEALER_MODES", "HOW_NAMES"]

FIRST_DEALER_MODES = ("rotate", "random")
HOW_NAMES = ("none", "reached", "count_out", "higher_total", "unfinished")
GAME_CHUNK = 1 << 15


# ------------------------------------------------------------------------------ plumbing
def _policies(rules: Rules, policies: Sequence[object] | object) -> tuple[Policy, ...]:
    return Policy.per_seat(policies, rules.players)


def unit_mode(rules: Rules) -> tuple[bool, bool]:
    """``(at_once, compact)`` of the games kernels: the game won at once (``game_at_once``),
    and outcome rows per scoring unit rather than per honour trick (all but ``game_at_once``
    with three or more sides and a tie other than ``count_out``)."""
    at_once = rules.game_at_once
    return at_once, not (at_once and rules.n_sides > 2 and rules.tie != "count_out")


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
                     "p_win": json_number(x.p_win),
                     "wilson95": [json_number(x.lo), json_number(x.hi)]}
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
            scores.append({"side": sd, "mean": json_number(m),
                           "se": json_number(se) if n_played > 1 else None})
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
            "hands_per_game": {"mean": json_number(mean_h),
                               "hist": {str(int(k)): int(hands[k]) for k in np.nonzero(hands)[0]}},
            "how": {name: int(self.how[i]) for i, name in enumerate(HOW_NAMES) if i > 0},
            "count_out": {"games": co, "share": json_number(co / n_played),
                          "wilson95": [json_number(x) for x in wilson(co, n_played)],
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
        cs = compiling_note(self.compile_s)
        lines.append(f"{self.elapsed_s:.2f} s on {self.executor}{cs}"
                     if self.threads and self.executor.startswith("Dask") else
                     f"{self.elapsed_s:.2f} s on {self.threads} thread(s){cs}" if self.threads
                     else "read from a run directory")
        return "\n".join(lines)


class _GamesTask:
    """Whole games as a run-engine task (:mod:`catchten_sim.run`): games ``first …
    first+count-1`` give one int64 row each (columns ``_kernels.games.G_*``). Picklable
    (for Dask): the rules' tables are rebuilt from the rules on first use in a process."""

    def __init__(self, rules: Rules, tab, pol_arr, seed_u, mode, n_units, n_rows, ncols):
        self.rules, self.tab, self.pol_arr, self.seed_u = rules, tab, pol_arr, seed_u
        self.mode, self.n_units, self.n_rows, self.ncols = mode, n_units, n_rows, ncols
        self.key = "games-" + run.job_key({"rules": rules.to_dict(), "seed": int(seed_u),
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
    n_games = check_count("games", n_games, 1)
    seed = check_seed(seed)
    used = max_threads() if threads is None else check_threads(threads)
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
                            f"got {described(first_dealer)}; rotate, random or a seat 0 … "
                            f"{n - 1}")
    start = np.zeros(ns, dtype=np.int64)
    if start_scores is not None:
        problem = rules.score_problem(start_scores)
        if problem:
            raise CatchTenError("score", "bad score", problem)
        start[:] = list(start_scores)
    at_once, compact = unit_mode(rules)
    n_units, n_rows = unit_shape(rules, compact)
    tab = rules.tables()
    pol_arr = Seating.of(pols).kernel_ids("game simulations", rules.seats_of(0))
    chunk = check_count("chunk", chunk, 1)
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

    run.check_executor_options(scheduler, workers)      # before a run directory is made
    rd = None
    if run_dir is not None:
        if on_rows is not None:
            raise CatchTenError("out", "not with --run-dir", "per-game rows come in game order "
                                "from a run without a run directory only")
        rd = run.RunDir.create_or_open(run_dir, {
            "kind": "games", "rules": rules.to_dict(), "policies": [p.label for p in pols],
            "seed": seed, "deals": n_games, "chunk": chunk, "first_dealer": label,
            "start_scores": [int(x) for x in start],
            "plan": {"chunks": len(run.chunk_plan(n_games, chunk, marks=False)) - 1,
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

    executor = run.make_executor(1) if rd is not None and not rd.compute else \
        run.make_executor(used, scheduler, workers)
    try:
        out = run.run(task, run.chunk_plan(n_games, chunk, marks=False), executor, fold,
                      run_dir=rd, progress=progress)
    finally:
        executor.close()
    if not out.done:
        raise CatchTenError("run-dir", "no finished chunk yet", str(rd.path) if rd else "")
    used = out.threads if rd is None or rd.compute else 0
    interrupted = out.interrupted or out.items < n_games
    done, elapsed = out.items, out.elapsed_s
    replays, games_rep, unfinished = tally["replays"], tally["games_rep"], tally["unfinished"]
    last = int(np.nonzero(hands_hist)[0].max()) if hands_hist.any() else 0
    return GameSimulationResult(rules, pols, seed, done, label, tuple(int(x) for x in start),
                                wins, unfinished, hands_hist[:last + 1].copy(), how, co_steps,
                                unit_hist, replays, games_rep, s_sum, s_sq, elapsed, used,
                                interrupted, executor.describe() if used else "",
                                out.compile_s if used else 0.0)


def open_run(run_dir: Any, kinds: tuple[str, ...] = ("games", "equity")
             ) -> tuple[run.RunDir, dict[str, Any]]:
    """A games or equity run directory (of ``kinds``) and the arguments of
    :func:`simulate_games` / :func:`catchten_sim.equity.equity_table` that made it
    (``kind`` among them).

    Raises
    ------
    CatchTenError
        Not a run directory, another version, another kind, or a bad manifest.
    """
    def parse(m: dict[str, Any]) -> dict[str, Any]:
        kw: dict[str, Any] = {"kind": m["kind"], "rules": run.manifest_rules(m),
                              "policies": [Policy.parse(p) for p in m["policies"]],
                              "seed": int(m["seed"]), "chunk": int(m["chunk"])}
        if m["kind"] == "games":
            fd = str(m["first_dealer"])
            kw.update(n_games=int(m["deals"]), start_scores=[int(x) for x in m["start_scores"]],
                      first_dealer=int(fd.split()[1]) if fd.startswith("seat ") else fd)
        else:
            kw.update(n_hands=int(m["deals"]), outputs=m.get("outputs"))
        return kw

    return run.open_of_kind(run_dir, kinds, " or ".join(kinds), parse)


def from_run_dir(run_dir: Any, **options: Any) -> GameSimulationResult:
    """Finish (or, with ``run_dir.compute`` false, summarize) the games run of a run
    directory (an equity run: :func:`catchten_sim.equity.from_run_dir`); ``options``:
    ``threads``, ``scheduler``, ``workers``, ``progress``."""
    rd, kw = open_run(run_dir, ("games",))
    kw.pop("kind")
    rules = kw.pop("rules")
    pols = kw.pop("policies")
    return simulate_games(rules, pols, run_dir=rd, **kw, **options)
