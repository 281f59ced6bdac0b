"""Strategy matches in duplicate format, with a pre-registered control variate.

>>> from catchten_sim import Rules
>>> from catchten_sim.match import match
>>> res = match(Rules("foster", 4), "heuristic", "random", deals=2_000)
>>> round(res.mean_difference, 1), [round(x, 1) for x in res.ci95]
(5.5, [4.9, 6.2])

"Is strategy A better than B?" Card luck swings a deal by tens of points while good play
gains a point or two, so every deal is played more than once with the strategies moved
round the table (duplicate bridge, the poker competitions):

Seatings
    With two sides: A on side 0 and B on side 1, then the same cards with the two swapped.
    With three or more sides: every rotation of "A on one side, B on the others" and of
    "B on one side, A on the others" (2 × sides seatings). Every side holds A in exactly
    half of the seatings, so neither the seats nor the deal favour either strategy.
    A seat plays its side's strategy (partners play the same one).

The deals
    Deal ``i`` is dealt from the random stream keyed by ``(seed, i)`` exactly as in
    :func:`catchten_sim.simulate.simulate` (dealer ``i % n``), before anybody plays: every
    seating of deal ``i`` sees the same cards, whatever the policies (the ``random``
    policy draws later from the same stream, so it never changes the cards).

The unit of sampling: a round of ``n`` consecutive deals (deal ``r n … r n + n - 1``:
each seat deals once). A round's value is the mean over its deals and seatings of

    x = (mean hand total of A's sides) - (mean hand total of B's sides)

in points per deal (RULES.md §2 hand totals: honours + card points). The rounds are
independent and identically distributed, so their mean has the usual standard error.

Variance reduction (fixed before the match, never fitted on its deals)
    The control variate of seating ``k`` is the deal's heuristic self-play value seen from
    that seating: every seat plays ``heuristic`` and ``c_k`` is the same A-minus-B
    difference of hand totals. Over a round (each seat deals once) the sides are
    exchangeable, so ``E[c_k] = 0`` exactly. The estimator per round is
    ``y = mean_k (x_k - beta_k c_k)``, unbiased for any fixed ``beta_k``; ``beta_k`` is
    the least-squares coefficient of ``x_k`` on ``c_k`` over a separate *pilot* set of
    rounds (deal numbers from :data:`PILOT_FIRST`, far from the match's), so it does not
    depend on the match's deals and the interval keeps its promise.

Three standard errors (``se``, points per deal, for the same number of deals):
``plain`` one seating per deal (``sqrt(mean_k se(x_k)^2)``), ``duplicate`` the mean over
the seatings, ``control_variate`` duplicate minus the control variate (the reported
interval). ``deals_saved_factor = (se_plain / se_control_variate)^2``: how many times
more deals plain play needs for the same interval. Each duplicate deal costs ``K`` plays
(the seatings) plus one heuristic self-play (none with ``pilot=0``), reported as
``plays_per_deal``.

Stopping: :class:`catchten_sim.aggregate.LookPlan` over the rounds (looks at 256 rounds
and every doubling, and at ``deals``); at every look before ``deals`` the run stops when
the interval excludes 0 (``separated``), or, when a ``precision`` is given, only when its
half-width is at most ``precision`` (``precision``; a separated interval alone does not
stop it then). Otherwise it stops at ``deals`` (``deals``, whatever the half-width then),
at the ``time`` limit (``time``) or on Ctrl-C
(``interrupted``, keeping every finished chunk); a summary of a run directory not yet
finished says ``unfinished``. The interval of any stop, at a look or between two (the
share of alpha of the next look, which is then never taken), uses Student's t with
``rounds - 1`` degrees of freedom at that share (:meth:`LookPlan.t_at`: the standard error
is estimated from the rounds themselves, and a match stopped after a handful of rounds
must not read a verdict off z), so it covers with probability at least 95% under the
repeated looks. Below :data:`MIN_ROUNDS` rounds (a match of a few deals, or stopped by
``time`` or Ctrl-C after a few rounds) no interval is stated at all: the mean difference
and the win share are, but every interval (``ci95``, the win share's), standard error,
critical value ``z`` and ``deals_saved_factor`` is nan (null in JSON, "n/a: 2 rounds,
need 30" in the text; :attr:`MatchResult.interval_reason`), as is the verdict.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from collections.abc import Callable
from typing import Any

import numpy as np

from ._kernels import engine as K
from .aggregate import LookPlan, RoundSums, json_number, normal_interval, verdict
from . import compile_notice
from .compile_notice import compiling_note
from .errors import CatchTenError
from .equity import cached_equity_table, exact_problem
from .gamerollouts import game_rollouts
from .policies import Policy, Seating
from .rules import Rules, check_rules
from . import run
from .checks import (MAX_DEALS, check_count, check_number, check_seed, check_threads,
                     max_threads)

__all__ = ["match", "MatchResult", "seatings", "game_p_win", "PILOT_FIRST", "STOPS"]

#: the first deal number of the pilot set: far from any match's deals (below 2**55, where
#: the counter-based streams of ``bits.rng_seed`` would repeat) and a multiple of 840, so
#: pilot deal ``PILOT_FIRST + j`` is dealt by seat ``j % n`` like match deal ``j``
PILOT_FIRST = (2 ** 55 // 840 - 1) * 840
PILOT_DEALS = 2_000
STOPS = ("precision", "separated", "deals", "time", "interrupted", "unfinished")
MAX_ROUNDS_PER_CHUNK = 1 << 13
#: the fewest rounds from which a match states any interval (the mean difference's, the
#: win share's), standard error, critical value, verdict ("separated", "not separated")
#: or deals-saved factor (a ratio of two variances): below it the text says "n/a: 2
#: rounds, need 30" (JSON null, ``interval_reason`` and ``verdict_reason`` why); the mean
#: difference and the win share are kept. The t interval's 95% rests on the round values
#: being near normal, which a handful of rounds of skewed hand totals does not give, and
#: a share's standard error from a few rounds may be 0 (2 rounds that both won 62.5% of
#: their plays gave the interval [62.5, 62.5]). With 30 rounds each variance has 29
#: degrees of freedom: were two independent, their ratio would be within a factor of
#: about 2 of the true one 95% of the time (F(29, 29): 0.48 to 2.1); with 2 rounds (one
#: degree of freedom) that range spans a factor of 600 either way.
MIN_ROUNDS = 30
CV_POLICY = Policy.HEURISTIC


def seatings(rules: Rules) -> list[tuple[int, ...]]:
    """Who plays what in each seating: one tuple per seating, one entry per side, 0 for A
    and 1 for B. Two sides: ``[(0, 1), (1, 0)]``. ``s >= 3`` sides: the ``s`` rotations of
    ``(0, 1, …, 1)`` and of ``(1, 0, …, 0)``."""
    ns = rules.n_sides
    if ns == 2:
        return [(0, 1), (1, 0)]
    out = []
    for lone in (0, 1):
        for k in range(ns):
            out.append(tuple(lone if sd == k else 1 - lone for sd in range(ns)))
    return out


@dataclass(frozen=True)
class MatchResult:
    """A duplicate match of strategy ``a`` against ``b`` (see the module docstring).

    Every number is in points per deal (hand totals, A minus B) unless named a share.

    Attributes
    ----------
    rules : Rules; a, b : Policy; seed : int
    deals : int, deals played in every seating (a multiple of the players: whole rounds).
    requested : int, deals asked for (rounded up to whole rounds).
    mean_difference : float, the duplicate + control-variate estimate.
    ci95 : (lo, hi), its 95% interval: ``mean_difference -/+ z se`` with the standard
        error of the estimate (``se["control_variate"]``, or ``se["duplicate"]`` without
        a pilot) and the look's critical value ``z`` (LookPlan).
    se : dict ``plain``, ``duplicate``, ``control_variate``: standard errors of a mean
        difference per deal over ``deals`` deals (``plain``: had each deal been played
        in one seating only).
    Below :data:`MIN_ROUNDS` rounds every interval, standard error and ``z`` is nan
    (:attr:`interval_reason`).
    means : dict, the plain-duplicate mean (``duplicate``) beside the CV one.
    win_share : (mean, lo, hi): share of (deal, seating) plays in which A's sides
        scored more than B's (ties count one half).
    beta : tuple of float, the control-variate coefficient per seating (from the pilot).
    pilot_deals : int; seatings : list of tuples (module docstring).
    stop : one of :data:`STOPS`; z : float; elapsed_s : float; threads : int;
    compile_s : float, seconds of ``elapsed_s`` spent compiling kernels (a cold cache).
    """

    rules: Rules
    a: Policy
    b: Policy
    seed: int
    deals: int
    requested: int
    mean_difference: float
    ci95: tuple[float, float]
    se: dict
    means: dict
    win_share: tuple[float, float, float]
    beta: tuple[float, ...]
    pilot_deals: int
    seatings: list
    stop: str
    z: float
    elapsed_s: float
    threads: int
    history: list = field(default_factory=list, repr=False)
    compile_s: float = 0.0
    #: per ``ipimc`` side (its label): ``{"decisions", "drawn", "effective_size",
    #: "effective_size_min"}``, the worlds drawn and their effective size (Kish) per
    #: decision, means over the decisions this session played (none read from a run dir)
    worlds: dict = field(default_factory=dict)

    @property
    def control_variate_used(self) -> bool:
        """False when no pilot was played (``pilot=0``, the default with a ``pimc``
        side): the estimate is the plain duplicate mean, ``se["control_variate"]`` nan."""
        return self.pilot_deals > 0

    @property
    def deals_saved_factor(self) -> float:
        """``(se_plain / se of the reported interval)^2``: the control variate's se, or
        the duplicate's when none was used (nan, "not available", when that se is 0 or
        not defined: no spread between the seatings; nan, "not estimated", below
        :data:`MIN_ROUNDS` rounds: a ratio of two variances from a few rounds is
        noise)."""
        if self.rounds < MIN_ROUNDS:
            return math.nan
        p = self.se["plain"]
        c = self.se["control_variate"] if self.control_variate_used else self.se["duplicate"]
        if not (c > 0) or not math.isfinite(p) or not math.isfinite(c):
            return math.nan
        return (p / c) ** 2

    @property
    def rounds(self) -> int:
        """Rounds played (``deals / players``): the sampling unit."""
        return self.deals // self.rules.players

    @property
    def has_interval(self) -> bool:
        """False below :data:`MIN_ROUNDS` rounds (a match of a few deals, or stopped by
        ``time`` or Ctrl-C after a few rounds): no standard error, no critical value, no
        interval of either statistic (nan; null in JSON, :attr:`interval_reason` in the
        text)."""
        return self.rounds >= MIN_ROUNDS and math.isfinite(self.z)

    @property
    def interval_reason(self) -> str | None:
        """Why no interval is stated, as the text says it after "n/a: " (``2 rounds,
        need 30``), or None when the intervals are stated."""
        if self.has_interval:
            return None
        r = self.rounds
        return f"{r:,} round{'' if r == 1 else 's'}, need {MIN_ROUNDS}"

    @property
    def plays_per_deal(self) -> int:
        """Plays of each deal: one per seating plus the control variate's self-play (none
        without a pilot)."""
        return len(self.seatings) + (1 if self.pilot_deals else 0)

    @property
    def verdict(self) -> str | None:
        """``separated`` when the interval excludes 0, else ``not separated``; None below
        :data:`MIN_ROUNDS` rounds (:attr:`verdict_reason` says why)."""
        if self.verdict_reason is not None:
            return None
        return verdict(self.ci95[0], self.ci95[1], 0.0)

    @property
    def verdict_reason(self) -> str | None:
        """Why no verdict is stated (fewer than :data:`MIN_ROUNDS` rounds), else None."""
        if self.rounds >= MIN_ROUNDS:
            return None
        return f"too few rounds for a verdict ({self.rounds:,} rounds; at least {MIN_ROUNDS})"

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract (README "Matches"): ``a, b, rules, deals, seed,
        mean_difference, ci95, se {plain, duplicate, control_variate},
        deals_saved_factor, stop``, and further keys."""
        return {
            "a": self.a.label, "b": self.b.label, "rules": self.rules.to_dict(),
            "deals": self.deals, "seed": self.seed,
            "mean_difference": json_number(self.mean_difference),
            "ci95": [json_number(self.ci95[0]), json_number(self.ci95[1])],
            "se": {k: json_number(v) for k, v in self.se.items()},
            "deals_saved_factor": json_number(self.deals_saved_factor),
            "stop": self.stop,
            "verdict": self.verdict, "verdict_reason": self.verdict_reason,
            "interval_reason": (None if self.interval_reason is None else
                                f"too few rounds for an interval ({self.rounds:,} rounds; "
                                f"at least {MIN_ROUNDS})"),
            "mean_difference_duplicate": json_number(self.means["duplicate"]),
            "win_share": {"mean": json_number(self.win_share[0]),
                          "ci95": [json_number(self.win_share[1]), json_number(self.win_share[2])]},
            "units": "points per deal (hand totals), A minus B",
            "seatings": [["a" if w == 0 else "b" for w in st] for st in self.seatings],
            "control_variate": ({"what": "heuristic self-play value of the deal, per seating",
                                 "beta": [json_number(x) for x in self.beta],
                                 "pilot_deals": self.pilot_deals}
                                if self.control_variate_used else None),
            "plays_per_deal": self.plays_per_deal,
            "requested_deals": self.requested,
            "z": None if json_number(self.z) is None else round(self.z, 4),
            "threads": self.threads,
            "elapsed_s": round(self.elapsed_s, 3),
            "compile_s": round(self.compile_s, 3),
            "ipimc_worlds": self.worlds or None,
        }

    def to_text(self) -> str:
        """A few lines for the terminal: below :data:`MIN_ROUNDS` rounds the means, and
        "n/a: R rounds, need 30" for every interval, standard error and verdict; from
        there the intervals, the standard error each interval is made of (``±`` the
        critical value times it) and the standard errors of plain play to compare."""
        lo, hi = self.ci95
        w, wlo, whi = self.win_share
        a, b = self.a.label, self.b.label
        cv = self.control_variate_used
        if self.has_interval:
            ci = f"95% interval [{lo:+.3f}, {hi:+.3f}] ({self.verdict})"
            won = f"{100 * w:.1f}% [{100 * wlo:.1f}, {100 * whi:.1f}]"
            se = _num(self.se["control_variate" if cv else "duplicate"], ".4f")
            ses = [f"  standard error of the difference: {se} ("
                   f"{'duplicate + control variate' if cv else 'duplicate, no control variate'}"
                   f"; the interval is the mean ± {self.z:.2f} x {se}); plain play (one "
                   f"seating a deal) {_num(self.se['plain'], '.4f')}"
                   + (f", duplicate alone {_num(self.se['duplicate'], '.4f')}" if cv else "")
                   + _saved(self.deals_saved_factor)]
            crit = f"critical value {self.z:.2f}, Student's t over {self.rounds:,} rounds; "
        else:
            na = f"n/a: {self.interval_reason}"
            ci, won = f"95% interval {na} (no verdict)", f"{100 * w:.1f}%, 95% interval {na}"
            ses, crit = [f"  standard error: {na}"], ""
        lines = [
            f"{a} vs {b}: {self.rules.label()}, {self.deals:,} deals "
            f"x {len(self.seatings)} seatings (duplicate), seed {self.seed}",
            f"  {a} minus {b}: {self.mean_difference:+.3f} points per deal, {ci}",
            f"  deals won by {a}: {won}", *ses,
            f"  stop: {self.stop} ({crit}{self.elapsed_s:.1f} s"
            f"{compiling_note(self.compile_s)})",
        ]
        for label, wd in self.worlds.items():
            lines.append(f"  {label} worlds per decision: {wd['drawn']:,.0f} drawn, effective "
                         f"size {wd['effective_size']:.1f} on average (least "
                         f"{wd['effective_size_min']:.1f}), over {wd['decisions']:,} decisions")
        return "\n".join(lines)


def _saved(factor: float) -> str:
    """What the text says of the deals saved against plain play (``factor``:
    :attr:`MatchResult.deals_saved_factor`, nan when the seatings' results do not
    spread)."""
    if math.isfinite(factor):
        return f": {factor:.1f}x fewer deals than plain play"
    return ": deals saved not available (no spread between the seatings' results)"


def _num(x: float, fmt: str) -> str:
    """``x`` formatted, or "not available" when it is not a finite number."""
    return format(x, fmt) if x is not None and math.isfinite(x) else "not available"



class _Player:
    """Plays rounds of deals in every seating (and the control variate's self-play) with
    the play core's ``run_chunk``, one work area (``scratch``) per call."""

    def __init__(self, rules: Rules, a: Policy, b: Policy, seed: int, threads: int) -> None:
        self.rules = rules
        self.tab = rules.tables()
        n = rules.players
        self.n = n
        self.seatings = seatings(rules)
        sos = np.array([rules.side_of(s) for s in range(n)], dtype=np.int64)
        self.side_of_seat = sos
        pols: list = []
        self.drivers: dict[int, Any] = {}
        for k, st in enumerate(self.seatings):
            seat_pols = [a if st[sos[s]] == 0 else b for s in range(n)]
            if Seating.of(seat_pols).any_driven:
                # pimc seats are decided from Python deal by deal (catchten_sim.pimc); the
                # solver's threads work inside each decision
                from .pimc import DealDriver   # lazy: the solver's modules, pimc only
                self.drivers[k] = DealDriver(rules, seat_pols, seed, threads=threads)
                pols.append(k)
            else:
                pols.append(np.array([int(p) for p in seat_pols], dtype=np.int64))
        pols.append(np.full(n, int(CV_POLICY), dtype=np.int64))
        self.policies = pols
        self.slow = bool(self.drivers)
        # masks (K, n_sides): weight of each side in A's mean minus B's mean
        ns = rules.n_sides
        wts = np.zeros((len(self.seatings), ns))
        for k, st in enumerate(self.seatings):
            na = sum(1 for v in st if v == 0)
            for sd, v in enumerate(st):
                wts[k, sd] = 1.0 / na if v == 0 else -1.0 / (ns - na)
        self.weights = wts
        self.seed = np.uint64(seed)
        self.ncols = K.N_FIXED + n * K.N_PER_POS
        self._no_acc = (np.zeros(0, np.int64), np.zeros(0, np.int64))

    def rows(self, first: int, count: int, policies: np.ndarray | int,
             scr: Any = None) -> np.ndarray:
        """Outcome rows (int16, the play core's columns) of deals ``first …`` played with
        ``policies`` (int64 (n,) one kernel id per seat, or the number of a seating with
        ``pimc`` seats, played by its :class:`catchten_sim.pimc.DealDriver`), in the work
        area ``scr`` (default: one of the player's own)."""
        if scr is None:
            scr = self._scr = getattr(self, "_scr", None) or K.scratch(self.tab)
        rows = np.zeros((count, self.ncols), dtype=np.int16)
        if not isinstance(policies, np.ndarray):          # a seating with pimc seats
            driver = self.drivers[policies]
            for i in range(count):
                driver.play(first + i, rows[i])
            return rows
        K.run_chunk(self.tab, policies, self.seed, np.int64(first), np.int64(count), rows,
                    self._no_acc, scr)
        return rows

    def side_totals(self, first: int, count: int, policies: np.ndarray | int,
                    scr: Any = None) -> np.ndarray:
        """Hand totals per side, float64 (count, n_sides), of deals ``first …``."""
        rows = self.rows(first, count, policies, scr)
        n = self.n
        dealer = rows[:, K.C_DEALER].astype(np.int64)
        tot = np.zeros((count, self.rules.n_sides))
        idx = np.arange(count)
        for p in range(n):
            side = self.side_of_seat[(dealer + 1 + p) % n]
            tot[idx, side] = rows[:, K.N_FIXED + p * K.N_PER_POS + K.F_TOTAL]
        return tot

    def rounds(self, first_round: int, n_rounds: int, scr: Any = None, deal_base: int = 0,
               use_cv: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Round values of rounds ``first_round …``: ``x`` (rounds, K) A minus B per
        seating, ``c`` (rounds, K) the control variate per seating (zeros without
        ``use_cv``: its self-play is not played), ``w`` (rounds,) A's win share."""
        n = self.n
        first = deal_base + first_round * n
        count = n_rounds * n
        K_ = len(self.seatings)
        x = np.zeros((count, K_))
        won = np.zeros(count)
        for k in range(K_):
            tot = self.side_totals(first, count, self.policies[k], scr)
            x[:, k] = tot @ self.weights[k]
            won += (x[:, k] > 0) + 0.5 * (x[:, k] == 0)
        if use_cv:
            tot = self.side_totals(first, count, self.policies[K_], scr)
            c = tot @ self.weights.T
        else:
            c = np.zeros((count, K_))
        shape = (n_rounds, n, K_)
        return (x.reshape(shape).mean(axis=1), c.reshape(shape).mean(axis=1),
                (won / K_).reshape(n_rounds, n).mean(axis=1))


class _RoundsTask:
    """Rounds of a match as a run-engine task (:mod:`catchten_sim.run`): rounds ``first
    … first+count-1`` (from deal ``deal_base``) give ``(x, c, w)`` of
    :meth:`_Player.rounds`. Picklable (for Dask): the player is built on first use in each
    process; its array form is the float64 values' bits as int64 (exact)."""

    def __init__(self, rules: Rules, a: Policy, b: Policy, seed: int, *, deal_base: int = 0,
                 use_cv: bool = True, solver_threads: int = 1) -> None:
        self.rules_dict = rules.to_dict()
        self.a, self.b, self.seed = a, b, int(seed)
        self.deal_base, self.use_cv, self.solver_threads = deal_base, use_cv, solver_threads
        self.k = len(seatings(rules))
        self.key = "match-" + run.job_key({"rules": self.rules_dict, "a": a.label,
                                              "b": b.label, "seed": self.seed,
                                              "base": deal_base, "cv": use_cv})
        self._player: _Player | None = None

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_player": None}

    def player(self) -> _Player:
        if self._player is None:
            r = self.rules_dict
            self._player = _Player(Rules(r["preset"], r["players"], r["variants"]), self.a,
                                   self.b, self.seed, self.solver_threads)
        return self._player

    def scratch(self) -> Any:
        return K.scratch(self.player().tab)

    def run(self, first: int, count: int, scr: Any) -> tuple:
        return self.player().rounds(first, count, scr, self.deal_base, self.use_cv)

    def combine(self, parts: list) -> tuple:
        return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))

    def to_array(self, partial: tuple) -> np.ndarray:
        x, c, w = partial
        return np.concatenate([x.ravel(), c.ravel(), w]).astype(np.float64).view(np.int64)

    def from_array(self, a: np.ndarray) -> tuple:
        f = np.ascontiguousarray(a, dtype=np.int64).view(np.float64)
        m, rest = divmod(len(f), 2 * self.k + 1)
        if rest:
            raise CatchTenError("run-dir", "chunk file does not fit the plan",
                                f"{len(f)} values, not rounds of {2 * self.k + 1}")
        kx = m * self.k
        return (f[:kx].reshape(m, self.k), f[kx:2 * kx].reshape(m, self.k), f[2 * kx:])

    def warm(self) -> None:
        self.run(0, 1, self.scratch())


def _refuse_dask(task: _RoundsTask, scheduler: str | None, workers: int | None) -> None:
    """A match with pimc seats runs on this machine: refuse a Dask option, naming it."""
    if task.player().slow and (scheduler or workers):
        who = task.a.label if Seating.of((task.a,)).any_driven else task.b.label
        raise CatchTenError("scheduler" if scheduler else "workers",
                            "pimc seats run on this machine",
                            f"{who}: the solver's threads work inside each decision; run "
                            "it without --scheduler/--workers")


def _executor(task: _RoundsTask, threads: int | None, scheduler: str | None,
              workers: int | None) -> Any:
    """The run engine's executor for a match (pimc seatings: this machine, in order, the
    solver's threads inside each decision)."""
    if task.player().slow:
        _refuse_dask(task, scheduler, workers)
        ex = run.InlineExecutor()
        ex.threads = task.solver_threads
        return ex
    return run.make_executor(threads, scheduler, workers)


def fit_beta(x: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Least-squares coefficient of ``x[:, k]`` on ``c[:, k]`` (with intercept) per
    seating; 0 where ``c`` does not vary."""
    beta = np.zeros(x.shape[1])
    for k in range(x.shape[1]):
        cc = c[:, k] - c[:, k].mean()
        v = float(cc @ cc)
        if v > 0:
            beta[k] = float(cc @ (x[:, k] - x[:, k].mean())) / v
    return beta


def match(rules: Rules, a: object, b: object, *, deals: int = 100_000, seed: int = 1,
          threads: int | None = None, time_limit: float | None = None,
          precision: float | None = None, pilot: int | None = None, stop_early: bool = True,
          progress: Callable[[int, int], None] | None = None, run_dir: Any = None,
          scheduler: str | None = None, workers: int | None = None,
          outputs: dict[str, Any] | None = None) -> MatchResult:
    """Play a duplicate match of strategy ``a`` against ``b`` (module docstring).

    Parameters
    ----------
    rules : Rules
    a, b : policy names (``random``, ``heuristic``, ``pimc[:N]``, ``ipimc[:N]``) or
        policies. A seating with ``pimc`` seats is played deal by deal
        (:class:`catchten_sim.pimc.DealDriver`, the solver's threads inside each decision;
        the same deals and results).
    deals : int, most deals per seating (rounded up to whole rounds of ``players`` deals).
    seed : int, 0 … 2**64 - 1; the result depends only on it (never on ``threads``).
    threads : int or None (all cores).
    time_limit : float seconds or None; checked after every chunk (the engine's one-time
        compile on a cold cache is not counted).
    precision : float or None: stop at a look once the interval's half-width is at most
        this many points per deal (and not before, even when the interval excludes 0;
        None: stop at the first look whose interval excludes 0). Needs the looks
        (``stop_early``).
    pilot : int or None, deals of the pilot set the control-variate coefficients are
        fitted on (rounded up to whole rounds; 0: no control variate, ``beta = 0``).
        None: :data:`PILOT_DEALS` when both strategies are kernel policies, 0 when one is
        ``pimc`` (a pilot would cost as much as the match, and with two sides the control
        variate gains little after duplicate play: README "Matches").
    stop_early : False: no looks before ``deals`` (stops only at ``deals``, ``time`` or
        Ctrl-C); the interval is then the fixed-sample one (z 1.96).
    progress : callable(done, total) in deals, after every chunk.
    run_dir : path, optional
        Keep every finished chunk of rounds there (:class:`catchten_sim.run.RunDir`,
        kind ``match``, with the pilot's coefficients); the same directory again continues
        the match (``catchten resume DIR``) with the same numbers as an uninterrupted one.
    scheduler, workers : a running Dask cluster / a local one of ``workers`` processes
        (kernel policies only); the same numbers as threads.
    outputs : dict, optional
        As in :func:`catchten_sim.simulate.simulate`.

    Returns
    -------
    MatchResult

    Raises
    ------
    CatchTenError
        Bad counts, seed, time, precision or an unknown policy; ``rules`` not a
        :class:`Rules` (an ArgumentError, also a TypeError).
    KeyboardInterrupt
        Ctrl-C before the first chunk finished (afterwards the result is returned with
        ``stop = "interrupted"``).
    """
    check_rules(rules)
    pa = Policy.parse(a, "a")
    pb = Policy.parse(b, "b")
    # the sampling unit is a round of n deals: an interval needs two rounds at least
    deals = check_count("deals", deals, 2 * rules.players, MAX_DEALS)
    seed = check_seed(seed)
    if pilot is None:
        pilot = 0 if Seating.of((pa, pb)).any_driven else PILOT_DEALS
    pilot = check_count("pilot", pilot, 0, 10 ** 7)
    if threads is not None:
        threads = check_threads(threads)
    _check_stops(time_limit, precision, stop_early)
    n = rules.players
    total_rounds = -(-deals // n)
    pilot_rounds = -(-pilot // n)
    used = max_threads() if threads is None else threads
    plan = LookPlan(total_rounds, early=bool(stop_early))
    clock = compile_notice.Stopwatch()
    K_ = len(seatings(rules))
    use_cv = pilot_rounds >= 2
    task = _RoundsTask(rules, pa, pb, seed, use_cv=use_cv, solver_threads=used)
    # the chunks end at every look (the stopping rule looks where a run without a run
    # directory looks) and every MAX_ROUNDS_PER_CHUNK rounds (one round with pimc seats)
    step = 1 if task.player().slow else MAX_ROUNDS_PER_CHUNK
    edges = np.append(np.union1d(np.array(plan.looks[:-1], np.int64),
                                 np.arange(0, total_rounds, step, dtype=np.int64)),
                      np.int64(total_rounds))
    run.check_executor_options(scheduler, workers)      # before a run directory is made
    _refuse_dask(task, scheduler, workers)
    rd = None
    if run_dir is not None:
        rd = run.RunDir.create_or_open(run_dir, {
            "kind": "match", "rules": rules.to_dict(), "policies": [pa.label, pb.label],
            "seed": seed, "deals": total_rounds * n, "chunk": int(step), "pilot": pilot,
            "stop_early": bool(stop_early), "precision": precision,
            "plan": {"chunks": len(edges) - 1, "ends": "every look of the stopping rule "
                     "and every chunk rounds of players deals"},
            **({"outputs": outputs} if outputs else {})})
    looks = _Looks(plan, total_rounds, n, RoundSums(K_), precision, time_limit, clock)
    sums, history = looks.sums, looks.history
    executor = None if rd is not None and not rd.compute else \
        _executor(task, threads, scheduler, workers)
    try:
        # the pilot: its own deal numbers, fitted before any match deal is played (kept in
        # the run directory, so a summary runs nothing)
        beta = looks.beta = _pilot_beta(rules, pa, pb, seed, pilot_rounds, used, executor, rd)
        out = run.run(task, edges, executor or run.NoRun(), looks.fold, run_dir=rd,
                         progress=(lambda d, t: progress(d * n, t * n)) if progress else None,
                         stop=looks.stop_now)
    finally:
        if executor is not None:
            executor.close()
    if sums.n == 0:
        if rd is not None and not rd.compute:
            raise CatchTenError("run-dir", "no finished chunk yet", str(rd.path))
        raise KeyboardInterrupt
    stop = looks.stop or ("interrupted" if out.interrupted else
                          "deals" if sums.n >= total_rounds else "unfinished")
    # the deals ran out: "deals", whatever the half-width then (the text and JSON show it)
    # a summary: the run's own compute time, never the read's
    summary = rd.compute_seconds() if rd is not None and not rd.compute else None
    elapsed = clock.elapsed() if summary is None else summary
    res = _result(rules, pa, pb, seed, sums, plan, total_rounds, use_cv, beta,
                  pilot_rounds, stop, elapsed, out.threads if executor is not None else 0,
                  history, 0.0 if summary is not None else clock.compile_s(elapsed))
    return replace(res, worlds=_worlds_drawn(task.player()))


def _worlds_drawn(player: _Player) -> dict:
    """Per ``ipimc`` side: the means over the decisions its drivers played in this process
    of the worlds drawn and their effective size (:attr:`MatchResult.worlds`)."""
    tot: dict[str, list[float]] = {}
    for driver in player.drivers.values():
        for label, (k, drawn, ess, least) in driver.worlds.items():
            t = tot.setdefault(label, [0, 0, 0.0, math.inf])
            t[0] += k
            t[1] += drawn
            t[2] += ess
            t[3] = min(t[3], least)
    return {label: {"decisions": int(k), "drawn": round(drawn / k, 1),
                    "effective_size": round(ess / k, 2), "effective_size_min": round(least, 2)}
            for label, (k, drawn, ess, least) in tot.items() if k}


def _check_stops(time_limit: object, precision: object, stop_early: bool) -> None:
    """Check :func:`match`'s ``time_limit`` and ``precision`` (seconds and points > 0;
    ``precision`` needs the early looks).

    Raises
    ------
    CatchTenError
        ``time``/``precision``: not a number, out of range; ``precision``: needs the early looks.
    """
    if time_limit is not None:
        check_number("time", time_limit, 0, what="seconds")
    if precision is not None:
        check_number("precision", precision, 0, what="points per deal")
    if precision is not None and not stop_early:
        raise CatchTenError("precision", "needs the early looks",
                            "without them the match plays every deal; drop "
                            "--no-early-stop, or --precision")


def _result(rules: Rules, pa: Policy, pb: Policy, seed: int, sums: RoundSums, plan: LookPlan,
            total_rounds: int, use_cv: bool, beta: np.ndarray, pilot_rounds: int, stop: str,
            elapsed: float, threads: int, history: list, compile_s: float) -> MatchResult:
    """The :class:`MatchResult` of :func:`match` from its running sums."""
    n = rules.players
    z = _critical(plan, sums.n)            # nan below MIN_ROUNDS rounds: no interval
    mu, se_y = sums.mean_se("y")
    md, se_d = sums.mean_se("d")
    mw, se_w = sums.mean_se("w")
    lo, hi = normal_interval(mu, se_y, z)
    wlo, whi = normal_interval(mw, se_w, z)
    # per deal: a round's value is a mean of n deals, so its se is that of n deals
    # without a pilot the estimate is the duplicate mean: no control variate se to show
    ses = {"plain": sums.se_plain(), "duplicate": se_d,
           "control_variate": se_y if use_cv else math.nan}
    if not math.isfinite(z):               # no standard error stated either
        ses = dict.fromkeys(ses, math.nan)
    return MatchResult(rules, pa, pb, seed, sums.n * n, total_rounds * n, mu, (lo, hi), ses,
                       {"duplicate": md}, (mw, _clip01(wlo), _clip01(whi)),
                       tuple(float(v) for v in beta), pilot_rounds * n if use_cv else 0,
                       seatings(rules), stop, z, elapsed, threads, history, compile_s)


class _Looks:
    """The fold of a match's chunks and its stopping rule (:func:`match`): rounds summed
    in plan order (chunks that come early wait), and a look at the ends of the same chunks
    as ever; ``stop`` says why the match stopped early (``precision``, ``separated``,
    ``time``), ``history`` holds each look's interval. ``beta`` (the control-variate
    coefficients) is set once the pilot is fitted, before the first chunk."""

    def __init__(self, plan: LookPlan, total_rounds: int, n: int, sums: RoundSums,
                 precision: float | None, time_limit: float | None,
                 clock: compile_notice.Stopwatch) -> None:
        self.plan, self.total_rounds, self.n, self.sums = plan, total_rounds, n, sums
        self.precision, self.time_limit, self.clock = precision, time_limit, clock
        self.history: list[dict] = []
        self.stop: str | None = None
        self.beta: Any = None
        self._next = 0
        self._pending: dict[int, tuple] = {}

    def fold(self, c: run.Chunk, part: tuple) -> None:
        sums, plan, total_rounds = self.sums, self.plan, self.total_rounds
        self._pending[c.index] = part
        while self.stop is None and self._next in self._pending:
            x, cv, w = self._pending.pop(self._next)
            sums.add(x, (x - cv * self.beta).mean(axis=1), w)
            self._next += 1
            done = sums.n
            if plan.is_look(done) or done >= total_rounds:
                mu, se = sums.mean_se("y")
                lo, hi = normal_interval(mu, se, _critical(plan, done))
                self.history.append({"deals": done * self.n, "mean": mu, "lo": lo, "hi": hi})
                # with --precision the run goes on until the half-width (a separated
                # interval alone does not stop it); without, until it excludes 0
                if done < total_rounds:
                    if self.precision is not None:
                        if (hi - lo) / 2 <= self.precision:
                            self.stop = "precision"
                    elif verdict(lo, hi, 0.0) == "separated":
                        self.stop = "separated"

    def stop_now(self) -> bool:
        if self.stop is None and self.time_limit is not None \
                and self.sums.n < self.total_rounds \
                and self.clock.working() >= self.time_limit:  # the one-time compile not counted
            self.stop = "time"
        return self.stop is not None


def _critical(plan: LookPlan, rounds: int) -> float:
    """The critical value of a stop after ``rounds`` rounds (:meth:`LookPlan.t_at`), nan
    below :data:`MIN_ROUNDS`: no interval is stated from fewer."""
    return plan.t_at(rounds) if rounds >= MIN_ROUNDS else math.nan


def _clip01(x: float) -> float:
    """``x`` clipped to [0, 1] (a share's interval end); nan stays nan (no interval)."""
    return x if math.isnan(x) else min(1.0, max(0.0, x))


PILOT_FILE = "pilot.json"


def _pilot_beta(rules: Rules, pa: Policy, pb: Policy, seed: int, pilot_rounds: int,
                used: int, executor: Any, rd: run.RunDir | None) -> np.ndarray:
    """The control variate's coefficients, fitted on the pilot rounds (zeros without a
    pilot); read from / written to the run directory's ``pilot.json`` (exact: float hex).

    Raises
    ------
    KeyboardInterrupt
        Ctrl-C during the pilot (no match deal played yet).
    CatchTenError
        A summary of a run directory whose pilot is not there yet.
    """
    K_ = len(seatings(rules))
    if pilot_rounds < 2:
        return np.zeros(K_)
    path = None if rd is None else rd.path / PILOT_FILE
    if path is not None and path.exists():
        try:
            beta = np.array([float.fromhex(v) for v in json.loads(path.read_text())["beta"]])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise CatchTenError("run-dir", "unreadable pilot", f"{path}: {exc}") from None
        if beta.shape == (K_,):
            return beta
    if executor is None:
        raise CatchTenError("run-dir", "no finished chunk yet", str(rd.path if rd else ""))
    task = _RoundsTask(rules, pa, pb, seed, deal_base=PILOT_FIRST, solver_threads=used)
    px, pc = np.zeros((pilot_rounds, K_)), np.zeros((pilot_rounds, K_))

    def fold(c: run.Chunk, part: tuple) -> None:
        px[c.first:c.first + c.count], pc[c.first:c.first + c.count] = part[0], part[1]

    out = run.run(task, run.chunk_plan(pilot_rounds, MAX_ROUNDS_PER_CHUNK, marks=False),
                     executor, fold)
    if out.interrupted:
        raise KeyboardInterrupt
    beta = fit_beta(px, pc)
    if rd is not None and path is not None:
        rd._atomic_write(path, (json.dumps({"beta": [float(v).hex() for v in beta]})
                                + "\n").encode())
    return beta


def open_run(run_dir: Any) -> tuple[run.RunDir, dict[str, Any]]:
    """A match's run directory and the arguments of :func:`match` that made it.

    Raises
    ------
    CatchTenError
        Not a run directory, another version, not a match, or a bad manifest.
    """
    return run.open_of_kind(run_dir, ("match",), "a match", lambda m: {
        "rules": run.manifest_rules(m), "a": m["policies"][0], "b": m["policies"][1],
        "deals": int(m["deals"]), "seed": int(m["seed"]), "pilot": int(m["pilot"]),
        "stop_early": bool(m["stop_early"]), "precision": m["precision"]})


def from_run_dir(run_dir: Any, **options: Any) -> MatchResult:
    """Finish (or, with ``run_dir.compute`` false, summarize) the match of a run
    directory: the same numbers as an uninterrupted match with its seed. ``options``:
    ``threads``, ``scheduler``, ``workers``, ``progress``, ``time_limit``."""
    rd, kw = open_run(run_dir)
    rules = kw.pop("rules")
    return match(rules, kw.pop("a"), kw.pop("b"), run_dir=rd, **kw, **options)


MATCH_ROLLOUT_GAMES = 4000     # games from 0-0 per seating and first dealer (4+ sides)


def game_p_win_detail(rules: Rules, a: object, b: object, *, n_hands: int = 200_000,
                      n_games: int = MATCH_ROLLOUT_GAMES, seed: int = 1,
                      threads: int | None = None) -> dict[str, Any]:
    """P(A wins a game from 0-0) as ``{"p", "se", "method"}``: through the exact table
    (:func:`game_p_win`; ``se`` None: the table's own sampling error is not estimated)
    where it can be built, else by game rollouts (every table: 4+ sides, or 3 without
    ``tie=count_out``): ``n_games`` games from 0-0 per seating of :func:`seatings` and
    first dealer, ``se`` their standard error.

    Raises
    ------
    CatchTenError
        A ``pimc`` side (the games are played by the kernel policies only), bad counts.
    """
    if exact_problem(rules) is None:
        return {"p": game_p_win(rules, a, b, n_hands=n_hands, seed=seed, threads=threads),
                "se": None, "method": "exact"}
    pa, pb = Policy.parse(a, "a"), Policy.parse(b, "b")
    n = rules.players
    zero = (0,) * rules.n_sides
    total = 0.0
    var = 0.0
    count = 0
    for st in seatings(rules):
        pols = [pa if st[rules.side_of(s)] == 0 else pb for s in range(n)]
        Seating.of(pols).kernel_ids("game rollouts")
        ro = game_rollouts(rules, pols, [(zero, d) for d in range(n)], n_games=n_games,
                           seed=seed, threads=threads)
        mine = [sd for sd, who in enumerate(st) if who == 0]
        q = ro.p_win[:, mine].sum(axis=1)           # A's share from each first dealer
        total += float(q.sum())
        var += float((q * (1.0 - q)).sum()) / ro.n_games
        count += n
    return {"p": total / count, "se": math.sqrt(var) / count, "method": "rollouts"}


def game_p_win(rules: Rules, a: object, b: object, *, n_hands: int = 200_000, seed: int = 1,
               threads: int | None = None) -> float:
    """P(A wins a game from 0-0), through the game-equity table: the mean, over the
    seatings of :func:`seatings` and the first dealer's seat, of the chance that a side
    played by A wins the game (:meth:`catchten_sim.equity.EquityTable.p_win`, the table of
    that seating's policies built from ``n_hands`` simulated deals and cached on disk).
    0.5 when A and B play alike. The table's own sampling error is not in the number.

    Raises
    ------
    CatchTenError
        Rules the table does not support (four or more sides, ``game_at_once`` …) or a
        ``pimc`` side (the table is built by the kernel policies only).
    """
    pa, pb = Policy.parse(a, "a"), Policy.parse(b, "b")
    n = rules.players
    total = 0.0
    count = 0
    for st in seatings(rules):
        pols = [pa if st[rules.side_of(s)] == 0 else pb for s in range(n)]
        Seating.of(pols).kernel_ids("game-equity table")
        eq = cached_equity_table(rules, pols, n_hands=n_hands,
                                 seed=seed, threads=threads)
        for d in range(n):
            p = eq.p_win((0,) * rules.n_sides, d)
            total += sum(p[sd] for sd, who in enumerate(st) if who == 0)
            count += 1
    return total / count
