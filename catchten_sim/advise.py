"""Evaluate the legal plays of a position; the odds of a hand at the deal.

>>> from catchten_sim.position import Position
>>> from catchten_sim.advise import advise
>>> pos = Position.from_dict({"players": 4, "dealer": 3, "seat": 0, "turnup": "7S",
...     "hand": "JS AS 9S KH QH 7D 8C 9C TC".split(), "play": []})
>>> adv = advise(pos, samples=200, seed=1)
>>> adv.best
Card('7D')
>>> from catchten_sim import Rules
>>> o = odds(Rules("foster", 4), "JS AS 9S KH QH 7D 8C 9C TC", "7S", seat=0, dealer=3)
>>> o.n_deals, round(float(o.points.mean), 1)
(20000, 28.1)

``advise`` also takes a position file's path (``advise("examples/position-lead.json")``).

Method (sound Monte Carlo practice):

1. **Determinization**: the hidden hands are drawn *uniformly* among all deals consistent
   with what the player to move knows (:class:`catchten_sim.determinize.Sampler`: cards
   played and by whom, voids shown, the turn-up in the dealer's hand, dead cards, hand
   sizes; later sets unseen by everyone).
2. **Evaluation** of every legal card on the *same* determinizations (common random
   numbers): an :class:`Evaluator` maps a batch of full deals to one outcome row per
   (deal, candidate). ``rollout`` (now): play the card, then the policies play the deal out,
   every candidate drawing from the same random stream. A double-dummy evaluator (``dd``)
   plugs in with the same interface when the solver exists.
3. **Statistics**: per candidate the mean of each measure with a 95% interval (normal
   for means, Wilson for proportions); differences between candidates from the *paired*
   per-deal differences (their standard error is much smaller than the unpaired one).
4. **Sequential stopping, honestly**: the rule looks at a fixed schedule of sample counts
   (256, 512, 1024, … doubling, and ``samples``) and stops when the paired interval of the
   best card minus the second excludes 0 ("separated") or lies inside ``±margin`` ("no
   practical difference"), or at ``samples`` / ``time_limit`` / Ctrl-C. The result says
   which. Because it looks several times, every interval uses the critical value of
   :class:`catchten_sim.aggregate.LookPlan` (alpha spending over the looks: z about 3.2 at
   an early look, 2.05 at the last), so each reported 95% interval and each verdict keeps
   its promise whatever look the run stopped at; ``stop_early=False`` runs all samples
   and reports the classic fixed-sample intervals (z 1.96). Cards that scored identically
   on every sample so far (e.g. the 7 and 8 of a suit when the 8 never matters) are
   *equivalent*: the best is then tested against the best card not equivalent to it.

Measures, for the player's side ("us"), over the whole hand (points already taken included,
so they are the hand's final scores):

``points``       our side's hand points (honours + card points);
``diff``         our points minus the best opposing side's (the default objective);
``ten_ours``     P(our side ends with the Ten of trumps);
``caught_by_us`` P(we catch the Ten: dealt to an opponent, taken by us);
``caught_by_them`` P(they catch our Ten);
``card_points``  our side's card points;
``p_win``        P(our side wins the game), with ``score`` given, from issue 5's
                 game-equity table (:func:`game_equity_hook`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol
from collections.abc import Callable, Mapping, Sequence

import numpy as np
from ._lazy import pandas as pd

if TYPE_CHECKING:
    import pandas

from ._kernels import engine as K
from ._kernels import rollout as KR
from .aggregate import (FIRST_LOOK, Z95, LookPlan, mean_se, normal_interval, paired_diff,
                        verdict, wilson)
from .cards import Card, cards_of_mask, format_card
from .determinize import Sampler
from .errors import CatchTenError
from .policies import Policy
from .position import InfoSet, Position
from .rules import NO_TRUMPS, Rules
from . import runner
from .simulate import _check_count, max_threads
from .state import card_points

MEASURES = ("points", "diff", "ten_ours", "caught_by_us", "caught_by_them", "card_points")
PROPORTIONS = ("ten_ours", "caught_by_us", "caught_by_them")
OBJECTIVES = ("diff", "points", "p_win")
STOP_REASONS = {
    "separated": "the best card is separated from the second at 95%",
    "equivalent": "the best two cards are within the practical margin at 95%",
    "interrupted": "interrupted (Ctrl-C): partial result",
    "samples": "the --samples limit was reached",
    "time": "the --time limit was reached",
    "single": "only one legal card",
    "exact": "every consistent deal was evaluated (exact: no sampling error)",
}
#: enumerate every consistent deal instead of sampling when there are at most this many,
#: per evaluator. Measured (benchmarks/bench_pimc.py, 4 players, 2 threads on a shared
#: machine): double-dummy solves of every card run at 2,000-3,300 deals/s with five cards
#: left each and 5,000-26,000 with four, so 100,000 deals could take over the default 30 s
#: --time; 20,000 (the default --samples) never costs more than the sampled run it
#: replaces. Heuristic rollouts of every card run at several 100,000 deals/s: 100,000.
EXACT_MAX = {"dd": 20_000, "rollout": 100_000}
ROLLOUT_SALT = 0xD1B54A32D192ED03
FIRST_BATCH = FIRST_LOOK
DEFAULT_MARGIN = {"diff": 0.25, "points": 0.25, "p_win": 0.01}   # practical margin
MAX_BATCH = 8192
MAX_SAMPLES = 50_000_000


# ------------------------------------------------------------------------ legal cards
def legal_cards(info: InfoSet) -> list[int]:
    """The cards the player to move may play (docs/rules.md §1, §3, §7.6), ascending:
    :meth:`catchten_sim.state.PlayState.legal_cards` of the position's play so far."""
    if info.state is None:
        raise CatchTenError("position", "no play state", "an InfoSet built without its play")
    return info.state.legal_cards()


# ------------------------------------------------------------------------ evaluators
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

    def __post_init__(self) -> None:
        self._rs = _Resume(self.info)
        # the rollouts' streams must not be the sampler's (same seed, same sample number):
        # a separate key, else the play would be correlated with the deal drawn
        self._play_seed = (int(self.seed) ^ ROLLOUT_SALT) & (2 ** 64 - 1)
        self._cands = np.array(list(self.candidates), dtype=np.int64)
        from .pimc import kernel_policies
        self._pols = kernel_policies(self.policies, "advise's rollouts")
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
        self._executor = runner.make_executor(max(1, self.threads))
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
            runner.run_batch(self._executor, task, m, first)
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


def make_evaluator(name: str, info: InfoSet, candidates: Sequence[int],
                   policies: Sequence[Policy], seed: int, threads: int) -> Evaluator:
    """The evaluator called ``name``: ``rollout`` (policies play the deal out) or ``dd``
    (every deal solved double-dummy, :class:`catchten_sim.dd.DoubleDummyEvaluator`).

    Raises
    ------
    CatchTenError
        ``unknown evaluator``.
    """
    key = str(name).strip().lower()
    if key == "rollout":
        from .pimc import PimcRolloutEvaluator, is_pimc
        if any(is_pimc(p) for p in policies):     # slow, but allowed (issue 10)
            return PimcRolloutEvaluator(info, candidates, policies, seed, threads)
        return RolloutEvaluator(info, candidates, policies, seed, threads)
    if key == "dd":
        from .dd import DoubleDummyEvaluator
        return DoubleDummyEvaluator(info, candidates, seed=seed,  # type: ignore[return-value]
                                    threads=threads)   # (duck-typed: has measures())
    raise CatchTenError("evaluator", "unknown evaluator", f"{name!r}; known: rollout, dd")


# ------------------------------------------------------------------------ game equity
EQUITY_HANDS = 200_000        # simulated deals behind the game-equity table advise builds
_EQUITY_CACHE: dict = {}


def game_equity_hook(info: InfoSet, policies: Sequence[Policy], *,
                     n_hands: int = EQUITY_HANDS,
                     progress: Callable[[int, int], None] | None = None,
                     time_limit: float | None = None
                     ) -> tuple[Callable[[np.ndarray], np.ndarray] | None, str]:
    """``(fn, why)``: ``fn`` maps outcome rows (…, ``rollout.n_out_cols``) to each side's
    P(winning the game) (float (…, n_sides)), or None with ``why`` it is not available.

    Uses issue 5's game-equity table (:func:`catchten_sim.games.equity_table`, built once
    per rules and policies from ``n_hands`` simulated deals, cached in memory and on disk
    by :func:`catchten_sim.games.cached_equity_table`; a build that would take longer than
    ``time_limit`` seconds stops sampling early and uses the deals it has, saying so in
    ``why``; ``progress(done, total)`` is called while it builds): P(win) after this
    scoring unit = the table's ``p_win_after(score before the unit, the unit's count-out
    steps, dealer, set)``, which is exact when the unit decides the game and the table's
    value of the next state otherwise. With per-set scoring the unit is the current set
    (the points of the earlier sets of this hand are added to ``score`` first).
    Not available: no ``score``; ``game_at_once`` (needs the order of the tricks); rules the
    table does not support (four or more sides).
    """
    r = info.rules
    if info.score is None:
        return None, "P(win) needs the game score (score)"
    if r.game_at_once:
        return None, "P(win) not available with game_at_once"
    try:
        from .games import cached_equity_table
    except ImportError:                       # pragma: no cover - issue 5 not merged
        return None, "P(win) not available: no game-equity table"
    from .pimc import is_pimc
    if any(is_pimc(p) for p in policies):
        return None, "P(win) not available with pimc rollouts (no game-equity table for pimc)"
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

    def fn(rows: np.ndarray) -> np.ndarray:
        st = np.ascontiguousarray(rows[..., base:base + ns * KR.N_STEPS]).reshape(
            -1, ns * KR.N_STEPS)
        uniq, inv = np.unique(st, axis=0, return_inverse=True)
        vals = np.array([table.p_win_after(before, u.reshape(ns, KR.N_STEPS).T, dealer, unit)
                         for u in uniq], dtype=np.float64)
        return vals[inv.reshape(-1)].reshape(rows.shape[:-1] + (ns,))

    return fn, why


# ------------------------------------------------------------------------ statistics
def _measures(out: np.ndarray, my_side: int, n_sides: int,
              others_together: bool = False) -> dict[str, np.ndarray]:
    """Per (sample, candidate) measures of the outcome rows (float64 arrays).

    ``diff`` is our total minus the best other side's; with ``others_together``, minus
    the other sides' totals added together (the double-dummy value's measure, so that the
    rollouts beside a dd run answer the same question; the same with two sides)."""
    base = KR.N_R_FIXED
    tot = out[..., base + KR.R_TOTAL::KR.R_PER_SIDE][..., :n_sides].astype(np.float64)
    ours = tot[..., my_side]
    others = np.delete(tot, my_side, axis=-1)
    if others_together:
        best_other = others.sum(axis=-1)
    else:
        best_other = others.max(axis=-1) if others.shape[-1] else np.zeros_like(ours)
    taker = out[..., KR.R_TEN_TAKER_SIDE]
    holder = out[..., KR.R_TEN_HOLDER_SIDE]
    return {
        "points": ours,
        "diff": ours - best_other,
        "ten_ours": (taker == my_side).astype(np.float64),
        "caught_by_us": ((taker == my_side) & (holder >= 0) & (holder != my_side)
                         ).astype(np.float64),
        "caught_by_them": ((holder == my_side) & (taker >= 0) & (taker != my_side)
                           ).astype(np.float64),
        "card_points": out[..., base + my_side * KR.R_PER_SIDE + KR.R_CARD_POINTS
                           ].astype(np.float64),
    }


class _Acc:
    """Streamed sums: per candidate and measure, and the objective's cross products."""

    def __init__(self, n_cand: int, names: Sequence[str], objective: str) -> None:
        self.names = list(names)
        self.n = 0
        self.s1 = {k: np.zeros(n_cand) for k in names}
        self.s2 = {k: np.zeros(n_cand) for k in names}
        self.objective = objective
        self.cross = np.zeros((n_cand, n_cand))
        #: per candidate, the samples in which it is a best card (objective within 1e-9
        #: of the sample's best)
        self.best_count = np.zeros(n_cand)

    def add(self, meas: dict[str, np.ndarray]) -> None:
        for k in self.names:
            x = meas[k]
            self.s1[k] += x.sum(axis=0)
            self.s2[k] += (x * x).sum(axis=0)
        x = meas[self.objective]
        self.cross += x.T @ x
        self.best_count += (x >= x.max(axis=1, keepdims=True) - 1e-9).sum(axis=0)
        self.n += x.shape[0]

    def mean_se(self, k: str, j: int) -> tuple[float, float]:
        return mean_se(float(self.s1[k][j]), float(self.s2[k][j]), self.n)

    def pair(self, a: int, b: int) -> tuple[float, float, float]:
        """Mean of the paired difference ``objective[a] - objective[b]``, its standard
        error, and the sum of squared differences."""
        k = self.objective
        return paired_diff(float(self.s1[k][a]), float(self.s2[k][a]), float(self.s1[k][b]),
                           float(self.s2[k][b]), float(self.cross[a, b]), self.n)


@dataclass(frozen=True)
class Estimate:
    """A mean (or proportion) with its 95% interval and sample size."""

    mean: float
    lo: float
    hi: float
    n: int
    se: float = math.nan

    def to_dict(self) -> dict[str, Any]:
        return {"mean": _r(self.mean), "ci95": [_r(self.lo), _r(self.hi)], "n": int(self.n),
                **({"se": _r(self.se)} if not math.isnan(self.se) else {})}

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ({self.lo:+.2f} to {self.hi:+.2f})"


def _r(x: float | None, d: int = 4) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), d)


def _mean_est(m: float, se: float, n: int, z: float = Z95) -> Estimate:
    """``m`` with its interval ``m -/+ z se``; ``z = 0`` marks an exact answer (every
    consistent deal, no random play): the interval is ``[m, m]`` and ``se`` 0."""
    if z == 0:
        return Estimate(m, m, m, n, 0.0)
    if math.isnan(se):
        return Estimate(m, math.nan, math.nan, n, se)
    lo, hi = normal_interval(m, se, z)
    return Estimate(m, lo, hi, n, se)


@dataclass(frozen=True)
class CandidateResult:
    """The evaluation of one legal card."""

    card: Card
    is_trump: bool
    n: int
    estimates: dict[str, Estimate]
    equivalent_to: Card | None = None
    #: the share of the determinizations in which this card is a best card (objective)
    best_share: float | None = None
    #: exact mode: the sum of the objective over every consistent deal
    value_sum: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", _card(self.card))
        object.__setattr__(self, "equivalent_to", _card(self.equivalent_to))

    @property
    def name(self) -> str:
        return format_card(self.card)

    def to_dict(self) -> dict[str, Any]:
        out = {"card": self.name, "trump": self.is_trump,
               **{k: v.to_dict() for k, v in self.estimates.items()},
               "equivalent_to": None if self.equivalent_to is None
               else format_card(self.equivalent_to),
               "best_share": _r(self.best_share, 6)}
        if self.value_sum is not None:
            vs = float(self.value_sum)
            out["value_sum"] = int(vs) if vs.is_integer() else vs
            out["mean_value"] = round(vs / self.n, 6)
        return out


@dataclass(frozen=True)
class Comparison:
    """A paired comparison of two cards on the objective: ``a`` minus ``b``."""

    a: Card
    b: Card
    diff: Estimate
    practical_margin: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "a", _card(self.a))
        object.__setattr__(self, "b", _card(self.b))

    @property
    def separated(self) -> bool:
        return self.diff.lo > 0 or self.diff.hi < 0

    @property
    def verdict(self) -> str:
        """``separated``, ``no practical difference`` (the interval lies inside
        ``±practical_margin``) or ``not separated`` (:func:`aggregate.verdict`)."""
        return verdict(self.diff.lo, self.diff.hi, self.practical_margin)

    def to_dict(self) -> dict[str, Any]:
        return {"a": format_card(self.a), "b": format_card(self.b), **self.diff.to_dict(),
                "separated": bool(self.separated), "verdict": self.verdict,
                "practical_margin": self.practical_margin}


@dataclass(frozen=True)
class Advice:
    """What ``advise`` found (frozen). ``to_frame()`` gives one row per legal card.

    Attributes
    ----------
    position : Position
    policies : tuple of Policy; evaluator : str; objective : str
    candidates : tuple of CandidateResult, best first (by the objective)
    best : Card, the recommended card (prints as ``7D``; equal to ``"7D"``); second : Card
        or None (the best card not equivalent to it)
    margin : Comparison or None, best minus second (paired, on the objective)
    trump_lead : Comparison or None, on lead holding trumps and other cards: best trump
        lead minus best other lead
    n_samples : int, determinizations (each candidate was evaluated on all of them)
    stop : str, one of ``STOP_REASONS`` (``interrupted``: a partial result)
    z : float, the critical value of every interval (:class:`aggregate.LookPlan`);
    intervals : str, what kind of intervals they are; practical_margin : float, in the
    objective's units
    elapsed_s : float; seed : int; n_consistent : float, deals consistent with the position
    p_win_available : bool (False: no score given, or no game-equity table yet)
    """

    position: Position
    policies: tuple[Policy, ...]
    evaluator: str
    objective: str
    candidates: tuple[CandidateResult, ...]
    best: Card
    second: Card | None
    margin: Comparison | None
    trump_lead: Comparison | None
    n_samples: int
    stop: str
    elapsed_s: float
    seed: int
    n_consistent: float
    p_win_available: bool
    note: str = ""
    z: float = Z95
    intervals: str = ""
    practical_margin: float = 0.0
    _acc: Any = field(default=None, repr=False, compare=False)
    _cands: tuple[int, ...] = field(default=(), repr=False, compare=False)
    #: every consistent deal was evaluated (no sampling error from the deals)
    exact: bool = False
    #: with the dd evaluator: the heuristic rollouts' answer on the same deals
    #: (``{"evaluator", "best", "trump_lead", "candidates"}``), else None
    other: dict | None = None
    #: one line when the two evaluators disagree on the best card or on "lead a trump?"
    model_note: str = ""
    #: seconds of ``elapsed_s`` spent compiling the engine's kernels (a cold numba cache)
    compile_s: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "best", _card(self.best))
        object.__setattr__(self, "second", _card(self.second))

    def compare(self, a: object, b: object) -> Comparison:
        """The paired comparison (on the objective, same samples) of any two legal cards:
        ``a`` minus ``b``."""
        from .cards import parse_card
        ca = a if isinstance(a, int) else parse_card(a)
        cb = b if isinstance(b, int) else parse_card(b)
        if ca not in self._cands or cb not in self._cands:
            raise CatchTenError("card", "not a legal card", f"{a!r} / {b!r}")
        d, se, _ = self._acc.pair(self._cands.index(ca), self._cands.index(cb))
        return Comparison(Card(ca), Card(cb), _mean_est(d, se, self._acc.n, self.z),
                          self.practical_margin)

    @property
    def partial(self) -> bool:
        """True when the run was interrupted (Ctrl-C)."""
        return self.stop == "interrupted"

    def candidate(self, card: object) -> CandidateResult:
        from .cards import parse_card
        c = card if isinstance(card, int) else parse_card(card)
        return next(x for x in self.candidates if x.card == c)

    def to_frame(self) -> pandas.DataFrame:
        rows = []
        for x in self.candidates:
            row: dict[str, Any] = {"card": x.name, "trump": x.is_trump, "n": x.n}
            for k, e in x.estimates.items():
                row[k] = e.mean
                row[f"{k}_lo"] = e.lo
                row[f"{k}_hi"] = e.hi
            row["equivalent_to"] = None if x.equivalent_to is None \
                else format_card(x.equivalent_to)
            rows.append(row)
        return pd.DataFrame(rows).set_index("card")

    def to_dict(self) -> dict[str, Any]:
        info = self.position.info()
        return {
            "kind": "advice",
            "rules": self.position.rules.to_dict(),
            "position": self.position.to_dict(),
            "to_move": {"seat": info.seat, "side": self.position.rules.side_of(info.seat),
                        "on_lead": not info.trick, "trick": info.trick_index,
                        "set": info.set_index + 1},
            "policies": [p.label for p in self.policies],
            "evaluator": self.evaluator,
            "objective": self.objective,
            "samples": self.n_samples,
            "stop": self.stop,
            "stop_reason": STOP_REASONS[self.stop],
            "partial": self.partial,
            "intervals": {"description": self.intervals, "z": _r(self.z)},
            "practical_margin": self.practical_margin,
            "verdict": None if self.margin is None else self.margin.verdict,
            "elapsed_s": round(self.elapsed_s, 3),
            "compile_s": round(self.compile_s, 3),
            "seed": self.seed,
            "consistent_deals": float(self.n_consistent),
            "n_consistent_deals": int(round(self.n_consistent)),
            "exact": self.exact,
            "p_win_available": self.p_win_available,
            "best": format_card(self.best),
            "second": None if self.second is None else format_card(self.second),
            "margin": None if self.margin is None else self.margin.to_dict(),
            "trump_lead": None if self.trump_lead is None else self.trump_lead.to_dict(),
            "candidates": [x.to_dict() for x in self.candidates],
            "note": self.note,
            "other_evaluator": self.other,
            "model_note": self.model_note,
        }


# ------------------------------------------------------------------------ advise
def _policies(rules: Rules, policy: object, opponents: object, seat: int
              ) -> tuple[Policy, ...]:
    mine = Policy.parse(policy, "policy")
    theirs = Policy.parse(opponents, "opponents") if opponents is not None else mine
    return tuple(mine if rules.side_of(s) == rules.side_of(seat) else theirs
                 for s in range(rules.players))


def _card(c: Any) -> Card | None:
    """A card index (int, numpy int) or Card as a :class:`Card`; None stays None."""
    return None if c is None else c if isinstance(c, Card) else Card(int(c))


def as_position(position: object) -> Position:
    """A :class:`Position` from a Position, a docs/formats.md position dict, or the path
    of a position JSON file.

    Raises
    ------
    CatchTenError
        A bad position, or a file that cannot be read.
    """
    import os
    if isinstance(position, Position):
        return position
    if isinstance(position, Mapping):
        return Position.from_dict(position)
    if isinstance(position, (str, os.PathLike)):
        return Position.from_json(os.fspath(position))
    raise CatchTenError("position", "not a position",
                        f"a Position, a dict or a JSON file path, not "
                        f"{type(position).__name__}")


def advise(position: Position | Mapping | str, *, policy: object = "heuristic",
           opponents: object = None,
           evaluator: str = "rollout", samples: int = 20_000,
           time_limit: float | None = 30.0, seed: int = 1, threads: int | None = None,
           objective: str | None = None, min_samples: int = FIRST_BATCH,
           stop_early: bool = True, margin: float | None = None,
           exact_max: int | None = None,
           progress: Callable[[int, int], None] | None = None) -> Advice:
    """Evaluate every legal card of ``position`` on common determinizations.

    Parameters
    ----------
    position : Position, a docs/formats.md position dict, or the path of a position JSON
    policy : policy of the player's side in the rollouts (``heuristic`` default, ``random``,
        or ``pimc[:N]``: slow, each of its decisions solves ``N`` deals,
        :class:`catchten_sim.pimc.PimcRolloutEvaluator`);
    opponents : policy of the other sides (default: the same).
    evaluator : ``rollout`` (heuristic play after the card) or ``dd`` (double-dummy play).
    samples : int, the most determinizations; time_limit : seconds (None: no limit), not
        counting the engine's one-time compile on a cold cache.
    seed : int, the result depends only on it (and the other arguments), not on threads.
    objective : ``p_win`` (the default when ``score`` is given and the game-equity table
        supports the rules), else ``diff``; or ``points``.
    min_samples : determinizations at the first look of the stopping rule (then doubling).
    stop_early : False: always run ``samples``; the intervals are then the fixed-sample ones.
    margin : the practical margin in the objective's units (default 0.25 points for
        ``diff``/``points``, 0.01 for ``p_win``): when the paired interval of the best two
        cards lies inside ``±margin`` the verdict is "no practical difference" (and the
        run may stop there).
    exact_max : enumerate every consistent deal instead of sampling when there are at
        most this many (default ``EXACT_MAX`` of the evaluator: dd 20,000, rollout
        100,000; 0: never): the
        result is then exact (``stop = "exact"``, ``Advice.exact``), with no sampling
        error from the deals (with random rollout policies the rollouts' error remains).
    progress : called as ``progress(done, total)`` while the game-equity table is built
        and after every batch.

    With ``evaluator="dd"`` the objective is ``diff`` (the double-dummy value; p_win and
    the points/Ten measures are not available), and the heuristic rollouts run on the same
    deals: ``Advice.other`` holds their answer and ``Advice.model_note`` says in one line
    when the two disagree on the best card or on "lead a trump?".

    Intervals: every interval in the result uses the critical value
    ``Advice.z`` of :class:`catchten_sim.aggregate.LookPlan`, valid whatever look the run
    stopped at (module docstring, step 4). Ctrl-C returns what was done (``stop =
    "interrupted"``) when at least one batch finished.

    Returns
    -------
    Advice

    Raises
    ------
    CatchTenError
        Bad counts, an unknown policy/evaluator/objective, or no legal card.
    """
    position = as_position(position)
    samples = _check_count("samples", samples, 1, MAX_SAMPLES)
    seed = _check_count("seed", seed, 0, 2 ** 64 - 1)
    if threads is not None:
        threads = _check_count("threads", threads, 1, 1024)
    if time_limit is not None and not (isinstance(time_limit, (int, float))
                                       and time_limit > 0):
        raise CatchTenError("time", "out of range", f"time={time_limit!r} (seconds > 0)")
    info = position.info()
    rules = position.rules
    my_side = rules.side_of(info.seat)
    pols = _policies(rules, policy, opponents, info.seat)
    cands = legal_cards(info)
    if not cands:
        raise CatchTenError("hand", "no legal card", "the player to move holds no card")
    from .compile_notice import Stopwatch
    clock = Stopwatch()           # --time leaves out the engine's one-time compile
    ev_key = str(evaluator).strip().lower()
    if ev_key == "dd":
        eq, eq_why = None, ("P(win) and the points/Ten measures are not available with the "
                            "dd evaluator (a solve gives the score difference, not the "
                            "line's count-out steps)")
        if objective not in (None, "diff"):
            raise CatchTenError("objective", "not available",
                                f"{objective} with --evaluator dd: a solve gives the score "
                                "difference only, not the final scores of its line that "
                                "P(win) and the points/Ten measures need (use --objective "
                                "diff, or --evaluator rollout for them)")
    else:
        eq, eq_why = game_equity_hook(
            info, pols, progress=progress,
            time_limit=None if time_limit is None else time_limit / 2)
    if objective is None:
        objective = "p_win" if eq is not None else "diff"
    if objective not in OBJECTIVES:
        raise CatchTenError("objective", "unknown objective",
                            f"{objective!r}; known: {', '.join(OBJECTIVES)}")
    if objective == "p_win" and eq is None:
        raise CatchTenError("objective", "not available",
                            f"p_win: {eq_why}")
    if margin is None:
        margin = DEFAULT_MARGIN[objective]
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or \
            not 0 <= margin < math.inf:
        raise CatchTenError("margin", "out of range", f"margin={margin!r} (allowed: 0 or more)")
    margin = float(margin)
    min_samples = _check_count("min_samples", min_samples, 1, MAX_SAMPLES)
    used = max_threads() if threads is None else threads
    sampler = Sampler(info)
    from .pimc import is_pimc
    with_pimc = any(is_pimc(p) for p in pols)
    if exact_max is None:
        exact_max = EXACT_MAX.get(ev_key, 0)
        if with_pimc:               # pimc rollouts: enumerate no more deals than asked
            exact_max = min(exact_max, samples)
    exact_max = _check_count("exact_max", exact_max, 0, 10 ** 9)
    exact = sampler.can_enumerate(exact_max)
    ev = make_evaluator(evaluator, info, cands, pols, seed, used)
    names = list(getattr(ev, "names", MEASURES)) + (["p_win"] if eq is not None else [])
    # with dd, the heuristic rollouts run on the same deals (cheap next to the solves), so
    # that a disagreement between the two models can be shown (not with pimc rollout
    # policies: they would repeat the dd model at a solve per decision)
    other = RolloutEvaluator(info, cands, pols, seed, used) \
        if ev_key == "dd" and not with_pimc else None
    acc = _Acc(len(cands), names, objective)
    acc_o = _Acc(len(cands), list(MEASURES), "diff") if other is not None else None
    if exact:
        # every consistent deal once: no sampling error from the deals
        total = sampler.n_deals
        plan = LookPlan(total, early=False)
        looks: tuple[int, ...] = (total,)
        stop_early_run = False
    else:
        total = samples
        plan = LookPlan(samples, early=stop_early, first=min_samples)
        looks = plan.looks
        stop_early_run = stop_early
    done = 0
    stop = "samples"
    equiv: dict[int, int] = {}
    try:
        while True:
            # batches double up to MAX_BATCH and end exactly at the planned looks
            nxt = next(x for x in looks if x > done)
            m = min(MAX_BATCH, nxt - done, MAX_BATCH if exact else max(plan.first, done))
            if exact:
                hidden = sampler.enumerate(m, start=done)
            else:
                hidden = sampler.sample(m, seed=seed, start=done)
            hands = sampler.full_hands(hidden)
            if hasattr(ev, "measures"):
                meas = ev.measures(hands, done)
            else:
                out = ev.evaluate(hands, done)
                meas = _measures(out, my_side, rules.n_sides)
                if eq is not None:
                    meas["p_win"] = eq(out)[..., my_side]
            if other is not None and acc_o is not None:
                acc_o.add(_measures(other.evaluate(hands, done), my_side, rules.n_sides,
                                    others_together=True))
            acc.add(meas)
            done += m
            if progress is not None:
                progress(done, total)
            if len(cands) == 1 and stop_early_run:
                stop = "single"
                break
            if stop_early_run and plan.is_look(done):
                order, second = _rank(acc, cands, equiv)
                if second is not None:
                    d, se, _ = acc.pair(order[0], second)
                    lo, hi = normal_interval(d, se, plan.z_at(done)) if se > 0 else (d, d)
                    v = verdict(lo, hi, margin)
                    if v == "separated":
                        stop = "separated"
                        break
                    if v == "no practical difference":
                        stop = "equivalent"
                        break
            if done >= total:
                stop = "exact" if exact else "samples"
                break
            if time_limit is not None and clock.working() >= time_limit:
                stop = "time"
                break
    except KeyboardInterrupt:
        if acc.n == 0:
            raise
        stop = "interrupted"
    finally:
        if hasattr(ev, "close"):
            ev.close()
        if other is not None:
            other.close()
    exact_done = exact and stop == "exact"
    # exact: the deals carry no sampling error; the evaluation none either unless a
    # random policy plays in the rollouts (then the rollouts' error remains)
    # (pimc rollouts sample their own deals at every decision: a random policy too)
    no_error = exact_done and (ev_key == "dd" or all(p != Policy.RANDOM and not is_pimc(p)
                                                     for p in pols))
    if stop == "single":          # nothing was decided from the data: one look
        plan = LookPlan(done, early=False)
    z = 0.0 if no_error else plan.z_at(done)
    if exact_done:
        intervals = (f"exact ({acc.n:,} deals): every consistent deal evaluated once"
                     + ("" if no_error else "; the intervals are the random rollouts' "
                        "error only (fixed sample, z 1.96)"))
    else:
        intervals = plan.describe(done)
    elapsed = clock.elapsed()
    order, second_j = _rank(acc, cands, equiv)
    results = _results(acc, cands, order, equiv, names, z, info, exact_done)
    best_j = order[0]
    best_margin = None
    if second_j is not None:
        d, se, _ = acc.pair(best_j, second_j)
        best_margin = Comparison(Card(cands[best_j]), Card(cands[second_j]),
                                 _mean_est(d, se, acc.n, z),
                                 margin)
    trump_lead, note = _trump_lead(acc, cands, order, info, z, margin)
    if eq_why:
        note = (note + "; " if note else "") + eq_why
    if exact and not exact_done:
        note = (note + "; " if note else "") + (
            f"the exact enumeration stopped after {acc.n:,} of {sampler.n_deals:,} deals: "
            "those are not a random sample, so the intervals do not hold (rerun with more "
            "--time, or --exact-max 0 to sample)")
    if ev_key == "dd" and rules.n_sides > 2:
        note = (note + "; " if note else "") + (
            "dd values with three or more sides: our side against the others together "
            "(paranoid), not against the best other side")
    other_d = None
    model_note = ""
    if acc_o is not None and acc_o.n:
        other_d, model_note = _compare_models(acc, acc_o, cands, info, z, margin, equiv)
    return Advice(position, pols, ev.name, objective, tuple(results), Card(cands[best_j]),
                  None if second_j is None else Card(cands[second_j]), best_margin, trump_lead,
                  acc.n, stop, elapsed, seed, sampler.n_consistent, eq is not None, note, z,
                  intervals, margin, acc, tuple(cands), exact_done, other_d, model_note,
                  clock.compile_s(elapsed))


def _results(acc: _Acc, cands: Sequence[int], order: Sequence[int], equiv: dict[int, int],
             names: Sequence[str], z: float, info: InfoSet, exact: bool
             ) -> list[CandidateResult]:
    """One :class:`CandidateResult` per candidate, in ``order``."""
    results = []
    for j in order:
        est: dict[str, Estimate] = {}
        for k in names:
            m_, se = acc.mean_se(k, j)
            if k in PROPORTIONS:
                lo, hi = wilson(int(round(acc.s1[k][j])), acc.n, z) if z > 0 else (m_, m_)
                est[k] = Estimate(m_, lo, hi, acc.n, se if z > 0 else 0.0)
            else:
                est[k] = _mean_est(m_, se, acc.n, z)
        results.append(CandidateResult(
            Card(cands[j]), _is_trump(info, cands[j]), acc.n, est,
            Card(cands[equiv[j]]) if j in equiv else None,
            float(acc.best_count[j]) / acc.n if acc.n else None,
            float(acc.s1[acc.objective][j]) if exact else None))
    return results


def _trump_lead(acc: _Acc, cands: Sequence[int], order: Sequence[int], info: InfoSet,
                z: float, margin: float) -> tuple[Comparison | None, str]:
    """On lead with trumps and other cards: best trump lead minus best other lead (paired,
    on the objective); else None and why."""
    if info.trick or info.trump >= NO_TRUMPS:
        return None, ""
    tr = [j for j in order if _is_trump(info, cands[j])]
    other = [j for j in order if not _is_trump(info, cands[j])]
    holds_trumps = bool(info.my_hand & (0x1FFF << (13 * info.trump)))
    if tr and other:
        d, se, _ = acc.pair(tr[0], other[0])
        return Comparison(Card(cands[tr[0]]), Card(cands[other[0]]), _mean_est(d, se, acc.n, z),
                          margin), ""
    if holds_trumps and not tr:
        return None, "a trump lead is not allowed here"
    if tr and not other:
        return None, "only trumps can be led"
    return None, ""


def trump_answer(c: Comparison | None) -> str | None:
    """"YES", "NO", "no practical difference" or "too close to call" for a trump-lead
    comparison (None: no such question here)."""
    if c is None:
        return None
    v = c.verdict
    if v == "no practical difference":
        return "no practical difference"
    if c.diff.lo > 0:
        return "YES"
    if c.diff.hi < 0:
        return "NO"
    return "too close to call"


def _compare_models(acc: _Acc, acc_o: _Acc, cands: Sequence[int], info: InfoSet,
                    z: float, margin: float, equiv: dict[int, int]) -> tuple[dict, str]:
    """The heuristic rollouts' answer on the dd run's deals, and one line when it differs
    from the double-dummy answer: on the best card when the two picks are not tied on
    every deal and at least one model separates its pick from the other's by more than
    the practical margin; on "lead a trump?" when the two lean opposite ways and at least
    one answers firmly (YES or NO)."""
    eq_o: dict[int, int] = {}
    order_o, _ = _rank(acc_o, cands, eq_o)
    order_d = sorted(range(len(cands)), key=lambda j: (-acc.s1[acc.objective][j], cands[j]))
    best_d, best_o = order_d[0], order_o[0]
    # cards tied with the best on every deal count as best too
    top_d = {best_d} | {j for j, b in equiv.items() if b == best_d}
    top_o = {best_o} | {j for j, b in eq_o.items() if b == best_o}
    tl_d, _ = _trump_lead(acc, cands, order_d, info, z, margin)
    tl_o, _ = _trump_lead(acc_o, cands, order_o, info, z, margin)
    z_o = z if z > 0 else 0.0
    other = {
        "evaluator": "rollout",
        "objective": "diff",
        # the dd value's measure (the same as diff with two sides)
        "measure": "our points minus the other sides' together",
        "best": format_card(cands[best_o]),
        "trump_lead": None if tl_o is None else {**tl_o.to_dict(),
                                                  "answer": trump_answer(tl_o)},
        "candidates": [{"card": format_card(cands[j]),
                        "diff": _mean_est(*acc_o.mean_se("diff", j), acc_o.n, z_o).to_dict()}
                       for j in order_o],
    }
    parts = []

    def how(a: _Acc, x: int, y: int) -> str:
        # how firmly card x beats card y: "firm" = separated at 95% by more than the
        # practical margin
        d, se, _ = a.pair(x, y)
        v = Comparison(Card(cands[x]), Card(cands[y]), _mean_est(d, se, a.n, z),
                       margin).verdict
        if v == "separated":
            return "firm" if d > margin else "separated, within the practical margin"
        if v == "no practical difference":            # e.g. exact: no sampling error
            return v
        return "a lean, not separated"

    def firm(a: _Acc, x: int, y: int) -> bool:
        return how(a, x, y) == "firm"
    if best_o not in top_d and best_d not in top_o and (
            firm(acc, best_d, best_o) or firm(acc_o, best_o, best_d)):
        md = acc.s1[acc.objective][best_d] / acc.n
        mo = acc_o.s1["diff"][best_o] / acc_o.n
        # say how firm each model is about its own pick, so a lean is not read as a verdict
        how_d = how(acc, best_d, best_o)
        how_o = how(acc_o, best_o, best_d)
        parts.append(f"best card: dd {format_card(cands[best_d])} ({md:+.2f}; {how_d}), "
                     f"heuristic rollouts {format_card(cands[best_o])} ({mo:+.2f}; {how_o})")
    if tl_d is not None and tl_o is not None:
        a_d, a_o = trump_answer(tl_d), trump_answer(tl_o)
        if (tl_d.diff.mean > 0) != (tl_o.diff.mean > 0) and ("YES" in (a_d, a_o) or
                                                             "NO" in (a_d, a_o)):
            parts.append(f"lead a trump? dd {a_d} ({tl_d.diff.mean:+.2f}), heuristic "
                         f"rollouts {a_o} ({tl_o.diff.mean:+.2f})")
    note = ""
    if parts:
        note = ("the answer depends on the model of play: " + "; ".join(parts)
                + " (dd: perfect play, all hands seen; rollouts: the heuristic's play)")
    return other, note


def _is_trump(info: InfoSet, c: int) -> bool:
    return info.trump < NO_TRUMPS and c // 13 == info.trump


def _rank(acc: _Acc, cands: Sequence[int], equiv: dict[int, int]
          ) -> tuple[list[int], int | None]:
    """Candidates best first by the objective (ties: lower card), and the best candidate
    not equivalent to the best (identical objective on every sample so far)."""
    k = acc.objective
    means = acc.s1[k] / max(acc.n, 1)
    order = sorted(range(len(cands)), key=lambda j: (-means[j], cands[j]))
    equiv.clear()
    best = order[0]
    second = None
    for j in order[1:]:
        _, _, d2 = acc.pair(best, j)
        if d2 <= 1e-9:
            equiv[j] = best
        elif second is None:
            second = j
    return order, second


# ------------------------------------------------------------------------ explain
#: the most deals :func:`explain` shows
MAX_EXPLAIN = 100


def explain(advice: Advice, n_deals: int = 3, *, card: object = None) -> list[dict[str, Any]]:
    """A few sampled deals (the first ``n_deals`` determinizations of the advice's seed)
    with the line played after the recommended card (or ``card``).

    Returns a list of ``{"sample", "hands": {seat: [cards held now]}, "tricks": [{"leader",
    "cards", "winner"}], "totals": [per side]}``.

    Raises
    ------
    CatchTenError
        Field ``explain``: ``n_deals`` not a whole number from 1 to :data:`MAX_EXPLAIN`.
    """
    from .cards import parse_card
    n_deals = _check_count("explain", n_deals, 1, MAX_EXPLAIN)
    pos = advice.position
    info = pos.info()
    r = pos.rules
    c = int(advice.best) if card is None else (int(card) if isinstance(card, int)
                                               else parse_card(card))
    ev = RolloutEvaluator(info, [c], advice.policies, advice.seed, 1)
    sampler = Sampler(info)
    hidden = sampler.sample(n_deals, seed=advice.seed, start=0)
    hands = sampler.full_hands(hidden)
    deals = []
    for i in range(n_deals):
        leaders, cards, winners, row = ev.line(hands[i:i + 1], i, c)
        tricks = []
        for t in range(info.trick_index, r.n_sets * r.set_size):
            cs = [int(x) for x in cards[t]]
            if t == info.trick_index:
                cs[:len(info.trick)] = [cc for _, cc in info.trick]
                cs[len(info.trick)] = c
            tricks.append({"trick": t, "leader": int(leaders[t]),
                           "cards": [format_card(x) for x in cs],
                           "winner": int(winners[t])})
        held = {s: [format_card(x) for x in cards_of_mask(int(hands[i, info.set_index, s]))]
                for s in range(r.players)}
        totals = [int(row[KR.N_R_FIXED + sd * KR.R_PER_SIDE + KR.R_TOTAL])
                  for sd in range(r.n_sides)]
        deals.append({"sample": i, "hands": held, "tricks": tricks, "totals": totals})
    ev.close()
    return deals


# ------------------------------------------------------------------------ odds
@dataclass(frozen=True)
class Odds:
    """The odds of a hand at the deal, before any card is played (frozen).

    Attributes
    ----------
    info : InfoSet (the observer's view at the deal)
    n_deals : int, determinizations played out
    points : Estimate, our side's hand points; distribution : dict points -> proportion
    card_points : Estimate; ten_ours : Estimate (proportion, Wilson)
    ten_lost : Estimate or None, P(we lose our Ten | our side was dealt it)
    ten_holder_ours : Estimate, P(our side was dealt the Ten)
    diff : Estimate, our points minus the best opposing side's
    """

    info: InfoSet
    policies: tuple[Policy, ...]
    seed: int
    n_deals: int
    points: Estimate
    diff: Estimate
    card_points: Estimate
    ten_ours: Estimate
    ten_holder_ours: Estimate
    ten_lost: Estimate | None
    distribution: dict[int, float] = field(default_factory=dict)
    elapsed_s: float = 0.0
    requested: int = 0
    partial: bool = False
    #: every consistent deal was played once (few enough: at most ``exact_max``)
    exact: bool = False
    #: seconds of ``elapsed_s`` spent compiling the engine's kernels (a cold numba cache)
    compile_s: float = 0.0

    def to_frame(self) -> pandas.DataFrame:
        """The distribution of our side's hand points: ``points``, ``p``, ``cum_p``."""
        pts = sorted(self.distribution)
        p = [self.distribution[k] for k in pts]
        return pd.DataFrame({"points": pts, "p": p, "cum_p": np.cumsum(p)}).set_index("points")

    def to_dict(self) -> dict[str, Any]:
        info = self.info
        r = info.rules
        return {
            "kind": "odds", "rules": r.to_dict(), "seat": info.seat, "dealer": info.dealer,
            "side": r.side_of(info.seat),
            "hand": [format_card(c) for c in cards_of_mask(info.my_hand)],
            "turnup": None if info.turnup is None else format_card(info.turnup),
            "policies": [p.label for p in self.policies], "seed": self.seed,
            "deals": self.n_deals, "points": self.points.to_dict(),
            "diff": self.diff.to_dict(), "card_points": self.card_points.to_dict(),
            "ten_ours": self.ten_ours.to_dict(),
            "ten_dealt_to_us": self.ten_holder_ours.to_dict(),
            "ten_lost_when_ours": None if self.ten_lost is None else self.ten_lost.to_dict(),
            "distribution": {str(k): _r(v, 6) for k, v in sorted(self.distribution.items())},
            "elapsed_s": round(self.elapsed_s, 3),
            "compile_s": round(self.compile_s, 3),
            "requested_deals": self.requested or self.n_deals,
            "partial": self.partial,
            "exact": self.exact,
            "intervals": ("exact: every consistent deal played once" if self.exact else
                          "95%, fixed sample size (odds does not stop early)"),
        }


def odds(rules: Rules, hand: Sequence[object] | str, turnup: object, *, seat: int,
         dealer: int, dead: Sequence[object] | str = (), policy: object = "heuristic",
         opponents: object = None, n_deals: int = 20_000, seed: int = 1,
         threads: int | None = None, exact_max: int | None = None,
         progress: Callable[[int, int], None] | None = None) -> Odds:
    """The odds of ``hand`` (the observer's cards at the deal; with sets, the first set)
    for seat ``seat`` with ``dealer`` dealing and ``turnup`` turned: deals consistent with
    them are drawn uniformly and played out from the first lead by the policies.
    It always plays ``n_deals`` (no early stop), so its intervals are the fixed-sample
    95% ones. Ctrl-C returns the deals finished so far (``partial=True``) when at least
    one batch finished; ``progress(done, total)`` is called after every batch.
    When the deals consistent with the hand are at most ``exact_max`` (default
    ``EXACT_MAX["rollout"]``; 0: never) every one is played once instead (``exact``).

    ``hand`` and ``dead`` are cards as text (``"JS AS 9S"`` or ``["JS", "AS"]``), card
    indices or :class:`Card`; ``turnup`` one card the same way.

    Raises
    ------
    PositionError, CatchTenError
        Inconsistent hand/turn-up/dead cards, bad counts.
    """
    from .cards import parse_cards
    from .position import deal_info
    if not isinstance(rules, Rules):
        raise CatchTenError("rules", "not a Rules object",
                            f"{rules!r}: pass Rules(preset, players, variants), "
                            "e.g. Rules('foster', 4)")
    hand = parse_cards(hand, "hand")
    dead = parse_cards(dead, "dead")
    turnup = Card(turnup).idx if turnup is not None else turnup
    n_deals = _check_count("deals", n_deals, 1, MAX_SAMPLES)
    seed = _check_count("seed", seed, 0, 2 ** 64 - 1)
    info = deal_info(rules, dealer=dealer, seat=seat, hand=hand, turnup=turnup, dead=dead)
    pols = _policies(rules, policy, opponents, seat)
    used = max_threads() if threads is None else _check_count("threads", threads, 1, 1024)
    sampler = Sampler(info)
    if exact_max is None:
        exact_max = EXACT_MAX["rollout"]
    exact = sampler.can_enumerate(_check_count("exact_max", exact_max, 0, 10 ** 9))
    if exact:
        n_deals = sampler.n_deals
    ev = RolloutEvaluator(info, [KR.NO_CARD], pols, seed, used)
    my_side = rules.side_of(seat)
    from .compile_notice import Stopwatch
    clock = Stopwatch()
    sums: dict[str, list[float]] = {k: [0.0, 0.0] for k in ("points", "diff", "card_points")}
    hist: dict[int, int] = {}
    k_ours = k_holder = k_lost = 0
    done = 0
    partial = False
    try:
        while done < n_deals:
            m = min(MAX_BATCH * 4, n_deals - done)
            hidden = sampler.enumerate(m, start=done) if exact else \
                sampler.sample(m, seed=seed, start=done)
            hands = sampler.full_hands(hidden)
            out = ev.evaluate(hands, done)[:, 0, :]
            meas = _measures(out, my_side, rules.n_sides)
            for k in sums:
                sums[k][0] += meas[k].sum()
                sums[k][1] += (meas[k] ** 2).sum()
            vals, cnt = np.unique(meas["points"].astype(np.int64), return_counts=True)
            for v, c in zip(vals, cnt):
                hist[int(v)] = hist.get(int(v), 0) + int(c)
            taker = out[:, KR.R_TEN_TAKER_SIDE]
            holder = out[:, KR.R_TEN_HOLDER_SIDE]
            k_ours += int((taker == my_side).sum())
            k_holder += int((holder == my_side).sum())
            k_lost += int(((holder == my_side) & (taker >= 0) & (taker != my_side)).sum())
            done += m
            if progress is not None:
                progress(done, n_deals)
    except KeyboardInterrupt:
        if done == 0:
            raise
        partial = True
    finally:
        ev.close()

    def est(k: str) -> Estimate:
        s, ss = sums[k]
        m_, se = mean_se(s, ss, done)
        return _mean_est(m_, se, done)

    def prop(k: int, n: int) -> Estimate:
        lo, hi = wilson(k, n)
        return Estimate(k / n if n else math.nan, lo, hi, n)

    elapsed = clock.elapsed()
    return Odds(info, pols, seed, done, est("points"), est("diff"), est("card_points"),
                prop(k_ours, done), prop(k_holder, done),
                prop(k_lost, k_holder) if k_holder else None,
                {k: v / done for k, v in sorted(hist.items())},
                elapsed, n_deals, partial, exact and not partial, clock.compile_s(elapsed))
