"""Evaluate the legal plays of a position (a hand's odds at the deal: :mod:`.odds`).

>>> from catchten_sim.position import Position
>>> from catchten_sim.advise import advise
>>> pos = Position.from_dict({"players": 4, "dealer": 3, "seat": 0, "turnup": "7S",
...     "hand": "JS AS 9S KH QH 7D 8C 9C TC".split(), "play": []})
>>> adv = advise(pos, samples=200, seed=1)
>>> adv.best
Card('7D')

``advise`` also takes a position file's path (``advise("examples/position-lead.json")``).

Method (sound Monte Carlo practice):

1. **Determinization**: the hidden hands are drawn *uniformly* among all deals consistent
   with what the player to move knows (:class:`catchten_sim.determinize.Sampler`: cards
   played and by whom, voids shown, the turn-up in the dealer's hand, dead cards, hand
   sizes; later sets unseen by everyone).
2. **Evaluation** of every legal card on the *same* determinizations (common random
   numbers): an evaluator (:mod:`catchten_sim.evaluators`) maps a batch of full deals to
   one outcome row per (deal, candidate). ``rollout``: play the card, then the policies
   play the deal out, every candidate drawing from the same random stream; ``dd``: every
   deal solved double-dummy.
3. **Statistics**: per candidate the mean of each measure with a 95% interval (normal
   for means, Wilson for proportions); differences between candidates from the *paired*
   per-deal differences (their standard error is much smaller than the unpaired one).
4. **Sequential stopping, honestly**: the rule looks at a fixed schedule of sample counts
   (256, 512, 1024, … doubling, and ``samples``) and stops when the paired interval of the
   best card minus the second excludes 0 ("separated") or lies inside ``±margin`` ("no
   practical difference") and, on lead with trumps and other cards, so does the one of
   "lead a trump?" (``settled``: one each); or at ``samples`` / ``time_limit`` / Ctrl-C.
   The result says which. It looks several times, so every interval uses the critical
   value of :class:`catchten_sim.aggregate.LookPlan` (alpha spending over the looks: z
   about 3.2 at an early look, 2.05 at the last): each reported 95% interval and each
   verdict keeps its promise whatever look the run stopped at (Student's t before the
   first look); ``stop_early=False`` runs all samples and reports the classic fixed-sample
   intervals (z 1.96). Cards that scored identically on every sample so far (e.g. the 7
   and 8 of a suit when the 8 never matters) are *equivalent*: the best is then tested
   against the best card not equivalent to it.

Measures, for the player's side ("us"), over the whole hand (points already taken included,
so they are the hand's final scores):

``points``       our side's hand points (honours + card points);
``diff``         our side's points minus the best opponents' (the default objective);
``ten_ours``     P(our side ends with the Ten of trumps);
``caught_by_us`` P(we catch the Ten: dealt to an opponent, taken by us);
``caught_by_them`` P(they catch our Ten);
``card_points``  our side's card points;
``p_win``        P(our side wins the game), with ``score`` given, from issue 5's
                 game-equity table (:func:`catchten_sim.equity.game_equity_hook`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Mapping, Sequence

import numpy as np
from ._lazy import pandas as pd

if TYPE_CHECKING:
    import pandas

from ._kernels import rollout as KR
from .aggregate import (FIRST_LOOK, Z95, AnySums, BoundedSums, CandidateSums, Estimate,
                        LookPlan, WeightedCandidateSums, json_number, mean_estimate as
                        _mean_est, pair_estimate as _pair_est, verdict, wilson, widened as
                        _widened)
from .cards import Card, format_card, only_cards, parse_card
from .compile_notice import Stopwatch
from .determinize import Sampler
from .errors import CatchTenError, echoed, not_a, unknown_name
from .equity import game_equity_hook
from .solve import BIG_DEAL, DEFAULT_NODE_LIMIT
from .evaluators import DoubleDummyEvaluator, Evaluator, RolloutEvaluator, legal_cards
from .fusion import for_advice as fusion_for
from .explain import (STOP_REASONS as STOP_REASONS, WHICH_TO_TRUST, inference_summary,
                      measure_words, model_lines, model_note as one_line, policy_label,
                      run_note, separation, stop_reason)
from .inference import Inference, for_advice
from .pimc import PimcRolloutEvaluator
from .policies import Policy, Seating
from .position import InfoSet, Position
from .rules import NO_TRUMPS, Rules
from .checks import check_count, check_number, check_seed, check_threads, max_threads

MEASURES = ("points", "diff", "ten_ours", "caught_by_us", "caught_by_them", "card_points")
PROPORTIONS = ("ten_ours", "caught_by_us", "caught_by_them")
OBJECTIVES = ("diff", "points", "p_win")
#: enumerate every consistent deal instead of sampling when there are at most this many, per
#: evaluator. Measured (benchmarks/bench_pimc.py, 4 players, 2 threads, shared machine): dd
#: solves of every card run at 2,000-3,300 deals/s with five cards left each and 5,000-26,000
#: with four, so 100,000 deals could take over the default 30 s --time; 20,000 (the default
#: --samples) never costs more than the sampled run. Heuristic rollouts: 100,000.
EXACT_MAX = {"dd": 20_000, "rollout": 100_000}
FIRST_BATCH = FIRST_LOOK
DEFAULT_MARGIN = {"diff": 0.25, "points": 0.25, "p_win": 0.01}   # practical margin
MAX_BATCH = 8192
_SETTLED = {"separated": "separated", "no practical difference": "equivalent"}  # (_look)
PIMC_BATCH = 4                # deals a batch with pimc rollouts: --time is checked often
DD_FIRST_BATCH = 16           # dd's first batch: the page's first dd values (docs/serve.md)
DD_FIRST_BATCH_BIG = 2        # on a deal of over BIG_DEAL (40) cards: seconds a deal
MAX_SAMPLES = 50_000_000


def make_evaluator(name: str, info: InfoSet, candidates: Sequence[int],
                   policies: Sequence[Policy], seed: int, threads: int,
                   max_nodes: int | None = DEFAULT_NODE_LIMIT) -> Evaluator:
    """The evaluator called ``name``: ``rollout`` (policies play the deal out) or ``dd``
    (every deal solved double-dummy, :class:`catchten_sim.evaluators.DoubleDummyEvaluator`).

    Raises
    ------
    CatchTenError
        ``unknown evaluator``.
    """
    key = str(name).strip().lower()
    if key == "rollout":
        if Seating.of(policies).any_driven:     # slow, but allowed (issue 10)
            return PimcRolloutEvaluator(info, candidates, policies, seed, threads)
        return RolloutEvaluator(info, candidates, policies, seed, threads)
    if key == "dd":
        return DoubleDummyEvaluator(info, candidates, seed=seed,  # type: ignore[return-value]
                                    threads=threads, node_limit=max_nodes)  # (measures())
    raise unknown_name("evaluator", "evaluator", name, ("rollout", "dd"))


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
               "best_share": json_number(self.best_share, 6)}
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
    #: with ``infer``: ``{"model", "eps", "worlds_drawn", "effective_size", "cards_seen",
    #: "note"}`` (the deals weighted by :mod:`catchten_sim.inference`; ``cards_seen`` the
    #: others' cards that count, 0: every weight 1, said in ``note``), else None
    inference: dict | None = None
    p_win_method: str = ""    # P(win) by "exact" (the table), "rollouts", or "" (none)
    #: dd: the deals whose solve stopped with bounds (node budget, clock, Ctrl-C): each
    #: interval of the objective then spans every value within them (methods.md)
    bounded: int = 0
    #: fusion-aware values (dd, few deals; :func:`catchten_sim.fusion.for_advice`)
    fusion: dict = field(default_factory=dict)
    #: ``model_note`` as printed: at most two lines of 80 columns (text.print_advice)
    model_lines: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "best", _card(self.best))
        object.__setattr__(self, "second", _card(self.second))

    def compare(self, a: object, b: object) -> Comparison:
        """The paired comparison (objective, same deals) of two legal cards: ``a`` minus ``b``."""
        ca = a if isinstance(a, int) else parse_card(a)
        cb = b if isinstance(b, int) else parse_card(b)
        if ca not in self._cands or cb not in self._cands:
            raise CatchTenError("card", "not a legal card", f"{echoed(a)} / {echoed(b)}")
        return Comparison(Card(ca), Card(cb), _pair_est(self._acc, self._cands.index(ca),
                                                        self._cands.index(cb), self.z),
                          self.practical_margin)

    @property
    def stop_reason(self) -> str:
        """Why the run stopped, in words (:func:`catchten_sim.explain.stop_reason`)."""
        return stop_reason(self.stop, self.trump_lead is not None)

    @property
    def partial(self) -> bool:
        """True when the run was interrupted (Ctrl-C)."""
        return self.stop == "interrupted"

    def candidate(self, card: object) -> CandidateResult:
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
            "measure": measure_words(self.objective, self.evaluator, self.position.rules.n_sides),
            "samples": self.n_samples,
            "stop": self.stop,
            "stop_reason": self.stop_reason,
            "partial": self.partial,
            "intervals": {"description": self.intervals, "z": json_number(self.z, 4)},
            "practical_margin": self.practical_margin,
            "verdict": None if self.margin is None else self.margin.verdict,
            "elapsed_s": round(self.elapsed_s, 3),
            "compile_s": round(self.compile_s, 3),
            "seed": self.seed,
            "consistent_deals": float(self.n_consistent),
            "n_consistent_deals": int(round(self.n_consistent)),
            "exact": self.exact,
            "p_win_available": self.p_win_available, "p_win_method": self.p_win_method or None,
            "best": format_card(self.best),
            "second": None if self.second is None else format_card(self.second),
            "margin": None if self.margin is None else self.margin.to_dict(),
            "trump_lead": None if self.trump_lead is None else self.trump_lead.to_dict(),
            "candidates": [x.to_dict() | {"fusion": self.fusion.get("values", {}).get(
                x.name)} for x in self.candidates],
            "fusion": self.fusion.get("summary"), "fusion_reason": self.fusion.get("reason"),
            "note": self.note,
            "other_evaluator": self.other,
            "model_note": self.model_note,
            "inference": self.inference,
            "bounded_deals": self.bounded,
            "which_to_trust": WHICH_TO_TRUST,
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
    if isinstance(position, Position):
        return position
    if isinstance(position, Mapping):
        return Position.from_dict(position)
    if isinstance(position, (str, os.PathLike)):
        return Position.from_json(os.fspath(position))
    raise not_a("position", "a position", position, "a Position, dict or file path")


def _sampling_plan(exact: bool, sampler: Sampler, samples: int, stop_early: bool,
                   min_samples: int) -> tuple[int, LookPlan, bool]:
    """:func:`advise`'s deals (in all), their looks, and whether it may stop early: every
    consistent deal once when ``exact``, else ``samples`` deals and the stopping rule."""
    if exact:
        total = sampler.n_deals
        return total, LookPlan(total, early=False), False
    return samples, LookPlan(samples, early=stop_early, first=min_samples), stop_early


def advise(position: Position | Mapping | str, *, policy: object = "heuristic",
           opponents: object = None, evaluator: str = "rollout", samples: int = 20_000,
           time_limit: float | None = 30.0, seed: int = 1, threads: int | None = None,
           objective: str | None = None, min_samples: int = FIRST_BATCH,
           stop_early: bool = True, margin: float | None = None,
           exact_max: int | None = None, infer: str | None = None, cards: object = None,
           max_nodes: int | None = DEFAULT_NODE_LIMIT, clock_start: float | None = None,
           progress: Callable[[int, int], None] | None = None,
           running: Callable[[int, dict[str, float]], None] | None = None) -> Advice:
    """Evaluate every legal card of ``position`` on common determinizations.

    Parameters
    ----------
    position : Position, a docs/formats.md position dict, or the path of a position JSON
    policy : policy of the player's side in the rollouts (``heuristic`` default, ``random``,
        or ``pimc[:N]`` / ``ipimc[:N]``: slow, each of its decisions solves ``N`` deals,
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
        most this many (default ``EXACT_MAX`` of the evaluator: dd 20,000, rollout 100,000;
        0: never): the result is then exact (``stop = "exact"``, ``Advice.exact``), with no
        sampling error from the deals (with random rollout policies the rollouts' remains).
    infer : ``heuristic``: deals weighted by inference (:mod:`catchten_sim.inference`; dd).
    max_nodes : dd: one deal's node budget (None: none); a solve stopped by it, the clock
        or Ctrl-C gives bounds, and the intervals span them (``Advice.bounded``).
    clock_start : the ``time.perf_counter()`` reading ``time_limit`` counts from (default:
        the call); with dd the limit stops the solves under way.
    cards : evaluate only these legal cards (e.g. ``"JS 7D"``; None: every legal card).
    progress : called as ``progress(done, total)`` while the game-equity table is built
        and after every batch.
    running : called after every batch as ``running(done, {card: mean})``, each legal
        card's mean of the objective so far (the analysis page fills its values in live;
        no interval: only the final ones are valid under early stopping).

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
        Bad counts, an unknown policy/evaluator/objective, or no legal card; ``time: too
        short`` when the time limit ends before one deal is evaluated.
    """
    position = as_position(position)
    samples = check_count("samples", samples, 1, MAX_SAMPLES)
    seed = check_seed(seed)
    threads = None if threads is None else check_threads(threads)
    if time_limit is not None:
        time_limit = check_number("time", time_limit, 0, what="seconds")
    info = position.info()
    rules = position.rules
    my_side = rules.side_of(info.seat)
    pols = _policies(rules, policy, opponents, info.seat)
    cands = only_cards(legal_cards(info), cards)
    clock = Stopwatch(clock_start)   # --time leaves out the engine's one-time compile
    ev_key = str(evaluator).strip().lower()
    eq, eq_why, objective, margin = _objective(info, pols, ev_key, objective, margin,
                                               progress, time_limit, seed, threads)
    min_samples = check_count("min_samples", min_samples, 1, MAX_SAMPLES)
    inference = for_advice(info, infer, ev_key)
    used = max_threads() if threads is None else threads
    sampler = Sampler(info)
    with_pimc = Seating.of(pols).any_driven
    exact = sampler.can_enumerate(_exact_max(exact_max, ev_key, with_pimc, samples))
    ev = make_evaluator(evaluator, info, cands, pols, seed, used, max_nodes)
    names = list(getattr(ev, "names", MEASURES)) + (["p_win"] if eq is not None else [])
    alike = ev.alike() if isinstance(ev, DoubleDummyEvaluator) else None
    other, acc, acc_o = _new_sums(info, cands, pols, seed, used, names, objective,
                                  ev_key == "dd" and not with_pimc, inference, alike)
    total, plan, stop_early_run = _sampling_plan(exact, sampler, samples, stop_early,
                                                 min_samples)
    looks, top = plan.looks, PIMC_BATCH if with_pimc else MAX_BATCH
    first = ((DD_FIRST_BATCH_BIG if rules.n_dealt > BIG_DEAL else DD_FIRST_BATCH)
             if ev_key == "dd" else MAX_BATCH if exact else plan.first)
    done, stop = 0, "samples"
    equiv: dict[int, int] = {}
    try:
        while True:
            # batches double from first to MAX_BATCH (PIMC_BATCH: pimc), end at the looks
            nxt = next(x for x in looks if x > done)
            m = min(top, nxt - done, max(first, done))
            hidden = (sampler.enumerate(m, start=done) if exact
                      else sampler.sample(m, seed=seed, start=done))
            _arm(ev, clock, time_limit)
            n0 = acc.n
            _add_batch(sampler.full_hands(hidden), done, ev, eq, my_side, rules.n_sides, acc,
                       None if acc_o is None else (other, acc_o), inference)
            done += acc.n - n0           # fewer than m when the clock cut the batch short
            if progress is not None:
                progress(done, total)
            if running is not None:
                running(done, {format_card(c): acc.mean_se(objective, j)[0]
                               for j, c in enumerate(cands)})
            if (cut := _cut(ev, acc)) is not None:
                stop = cut
                break
            if len(cands) == 1 and stop_early_run:
                stop = "single"
                break
            if stop_early_run and plan.is_look(done):
                verdict_stop = _look(acc, cands, equiv, plan.critical(done), margin, info)
                if verdict_stop is not None:
                    stop = verdict_stop
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
    adv = _advice(position, pols, ev.name, ev_key, objective, margin, acc, acc_o, cands,
                  equiv, plan, done, stop, exact, sampler, eq, eq_why, seed, clock)
    adv = adv if cards is None else replace(adv, note=(adv.note + "; " if adv.note else "")
                                            + "only the cards asked for were evaluated")
    adv = replace(adv, fusion=fusion_for(info, ev_key == "dd", adv.exact, adv.candidates))
    return adv if inference is None else replace(
        adv, inference=inference_summary(inference, acc, info.rules.n_sets > 1))


def _exact_max(exact_max: int | None, ev_key: str, with_pimc: bool, samples: int) -> int:
    """The most consistent deals :func:`advise` enumerates (checked)."""
    if exact_max is None:
        exact_max = EXACT_MAX.get(ev_key, 0)
        if with_pimc:               # pimc rollouts: enumerate no more deals than asked
            exact_max = min(exact_max, samples)
    return check_count("exact_max", exact_max, 0, 10 ** 9)


def _arm(ev: Any, clock: Stopwatch, time_limit: float | None) -> None:
    """dd: the clock's limit stops the solves under way (:meth:`Stopwatch.deadline`), and a
    Ctrl-C keeps the deals taken."""
    if hasattr(ev, "deadline"):
        ev.deadline = None if time_limit is None else clock.deadline(time_limit)
        ev.keep_on_interrupt = True


def _cut(ev: Any, acc: AnySums) -> str | None:
    """Why a dd batch was cut short ("time", "interrupted"; the deals taken are kept,
    those stopped in mid-solve with their bounds), else None."""
    cut = getattr(ev, "stopped_by", None)
    if cut == "interrupted" and acc.n == 0:
        raise KeyboardInterrupt
    return cut


def _new_sums(info: InfoSet, cands: Sequence[int], pols: tuple[Policy, ...], seed: int,
              threads: int, names: list[str], objective: str, with_other: bool,
              inference: Inference | None, alike: frozenset[tuple[int, int]] | None
              ) -> tuple[RolloutEvaluator | None, AnySums, AnySums | None]:
    """``(other, acc, acc_o)``: with dd (``with_other``) the heuristic rollouts run on the
    same deals (cheap next to the solves), so that a disagreement between the two models
    can be shown (not with pimc rollout policies: they would repeat the dd model at a
    solve per decision); the running sums of the evaluator (with ``alike``, dd's pairs of
    cards of one value, the bounds of a solve that stops) and of those rollouts (weighted)."""
    other = RolloutEvaluator(info, cands, pols, seed, threads) if with_other else None
    sums: type[AnySums] = CandidateSums if inference is None else WeightedCandidateSums
    acc = sums(len(cands), names, objective)
    b = float(info.rules.deal_points_bound)       # what one deal's objective can be
    acc.value_range = {"diff": (-b, b), "points": (0.0, b)}.get(objective, (0.0, 1.0))
    if alike is not None:          # dd: a solve may stop with bounds
        acc.bounds = BoundedSums(len(cands), inference is not None, alike)
    return other, acc, sums(len(cands), list(MEASURES), "diff") if with_other else None


def _objective(info: InfoSet, pols: tuple[Policy, ...], ev_key: str, objective: str | None,
               margin: float | None, progress: Callable[[int, int], None] | None,
               time_limit: float | None, seed: int = 1, threads: int | None = None
               ) -> tuple[Callable[..., np.ndarray] | None, str, str, float]:
    """``(eq, eq_why, objective, margin)`` of :func:`advise`: the P(win) hook (None and why
    when not available), the objective and the practical margin, checked.

    Raises
    ------
    CatchTenError
        An unknown or unavailable objective; a margin out of range.
    """
    if ev_key == "dd":
        eq, eq_why = None, ("P(win) and the points/Ten measures are not available with the "
                            "dd evaluator (a solve gives the score difference, not the "
                            "line's count-out steps)")
        if objective not in (None, "diff"):     # a solve gives the difference only
            raise CatchTenError("objective", "not available",
                                f"{objective} with --evaluator dd; use --evaluator rollout")
    else:
        eq, eq_why = game_equity_hook(info, pols, progress=progress, seed=seed, threads=threads,
                                      time_limit=None if time_limit is None else time_limit / 2)
    if objective is None:
        objective = "p_win" if eq is not None else "diff"
    if objective not in OBJECTIVES:
        raise unknown_name("objective", "objective", objective, OBJECTIVES)
    if objective == "p_win" and eq is None:
        raise CatchTenError("objective", "not available", f"p_win: {eq_why}")
    margin = DEFAULT_MARGIN[objective] if margin is None else margin
    margin = check_number("margin", margin, 0, lo_open=False)
    return eq, eq_why, objective, margin


def _add_batch(hands: np.ndarray, done: int, ev: Any,
               eq: Callable[..., np.ndarray] | None, my_side: int, n_sides: int,
               acc: Any, other: tuple[Any, Any] | None, inference: Inference | None) -> None:
    """Evaluate one batch of deals (sample numbers from ``done``) into ``acc``, and with
    ``other`` = ``(rollout evaluator, its sums)`` the heuristic rollouts beside dd; with
    ``inference``, weighted (:class:`~catchten_sim.aggregate.WeightedCandidateSums`)."""
    if hasattr(ev, "measures"):
        meas = ev.measures(hands, done)
        hands = hands[:meas[acc.objective].shape[0]]     # a batch cut short by the clock
    else:
        out = ev.evaluate(hands, done)
        meas = _measures(out, my_side, n_sides)
        if eq is not None:
            meas["p_win"] = eq(out, done)[..., my_side]
    w = None if inference is None else inference.weights(hands)
    meas_o = None if other is None else _measures(other[0].evaluate(hands, done), my_side,
                                                  n_sides, others_together=True)
    from .run import sigint_deferred   # all sums or none: a Ctrl-C in the adds waits
    with sigint_deferred():            # (half-added, a count passed its deals' number)
        if acc.bounds is not None:
            acc.bounds.add(meas["diff_lo"], meas["diff_hi"], w)
        for a, m in ([(other[1], meas_o)] if other else []) + [(acc, meas)]:
            a.add(m) if w is None else a.add(m, w)


def _look(acc: AnySums, cands: Sequence[int], equiv: dict[int, int], z: float,
          margin: float, info: InfoSet) -> str | None:
    """The stop at a look of the stopping rule (critical value ``z``), from the verdicts
    the answer prints at this look (:func:`_ranked`, :func:`_trump_lead`: the same
    intervals, bounded deals included): the best card against the second and, when the
    answer asks it, "lead a trump?", each separated or within the practical margin.
    ``separated`` / ``equivalent`` when both are (or there is no trump question),
    ``settled`` when one is separated and the other within the margin; else None (go on)."""
    order, _, best = _ranked(acc, cands, equiv, z, margin)
    trump, _ = _trump_lead(acc, cands, order, info, z, margin)
    stops = {_SETTLED.get(c.verdict) for c in (best, trump) if c is not None}
    if best is None or None in stops:
        return None
    return stops.pop() if len(stops) == 1 else "settled"


def _advice(position: Position, pols: tuple[Policy, ...], ev_name: str, ev_key: str,
            objective: str, margin: float, acc: AnySums, acc_o: AnySums | None,
            cands: Sequence[int], equiv: dict[int, int], plan: LookPlan, done: int, stop: str,
            exact: bool, sampler: Sampler, eq: Any, eq_why: str, seed: int,
            clock: Stopwatch) -> Advice:
    """The :class:`Advice` of a finished (or stopped) :func:`advise` run; ``time: too short``
    when the time limit ended before a deal was solved (none, or < 10 all bounded)."""
    if acc.n == 0 or stop == "time" and acc.bounds and acc.bounds.n_bounded == acc.n < 10:
        raise CatchTenError("time", "too short", "no deal solved in time; the start took "
                            f"{clock.working():.1f} s")
    info = position.info()
    rules = position.rules
    exact_done = exact and stop == "exact"
    planned = plan.samples
    if stop == "single":          # nothing was decided from the data: one look
        plan = LookPlan(done, early=False)
    z = critical_value(plan, done, exact_done, ev_key, pols)
    if exact_done:
        intervals = (f"exact ({acc.n:,} deals): every consistent deal evaluated once"
                     + ("" if z == 0 else "; the intervals are the random rollouts' error"
                        f" only (fixed sample, {plan.said(done)})"))
    else:
        intervals = plan.describe(done)
    elapsed = clock.elapsed()
    order, equiv, best_margin = ranked = _ranked(acc, cands, equiv, z, margin)
    results = _results(acc, cands, order, equiv, acc.names, z, info, exact_done)
    best_j = order[0]
    trump_lead, note = _trump_lead(acc, cands, order, info, z, margin)
    note = run_note(note, eq_why, (acc.n, sampler.n_deals) if exact and not exact_done
                    else None, acc.bounds.n_bounded if acc.bounds is not None else 0, acc.n,
                    ev_key == "dd" and rules.n_sides > 2, few="" if exact_done or len(
                        cands) == 1 or (best_margin and best_margin.separated) else ev_key)
    other_d = None
    lines: list[str] = []
    if acc_o is not None and acc_o.n:   # the rollouts' own critical value at this look
        z_o = critical_value(plan, done, exact_done, "rollout", pols)
        other_d, lines = _compare_models(acc, acc_o, cands, info, (z, z_o), margin,
                                         ranked, planned, policy_label(pols))
    return Advice(position, pols, ev_name, objective, tuple(results), Card(cands[best_j]),
                  None if best_margin is None else best_margin.b, best_margin, trump_lead,
                  acc.n, stop, elapsed, seed, sampler.n_consistent, eq is not None, note, z,
                  intervals, margin, acc, tuple(cands), exact_done, other_d, one_line(lines),
                  clock.compile_s(elapsed), p_win_method=getattr(eq, "method", ""),
                  bounded=0 if acc.bounds is None else acc.bounds.n_bounded,
                  model_lines=tuple(lines))


def critical_value(plan: LookPlan, done: int, exact_done: bool, ev_key: str,
                   pols: tuple[Policy, ...]) -> float:
    """The critical value of ``ev_key``'s intervals after ``done`` deals (one rule for
    :func:`advise`'s own and the rollouts beside dd): ``plan.critical(done)``, or 0 when every
    consistent deal was evaluated and the evaluation has no error (dd, no random policy)."""
    # (pimc rollouts sample their own deals at every decision: a random policy too)
    no_error = exact_done and (ev_key == "dd" or not Seating.of(pols).any_driven and all(
        p != Policy.RANDOM for p in pols))
    return 0.0 if no_error else plan.critical(done)


def _results(acc: AnySums, cands: Sequence[int], order: Sequence[int], equiv: dict[int, int],
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
            elif k == "p_win":          # a mean of probabilities: its interval in [0, 1]
                e = _mean_est(m_, se, acc.n, z)
                est[k] = Estimate(m_, min(max(e.lo, 0.0), 1.0), min(max(e.hi, 0.0), 1.0),
                                  e.n, e.se)
            else:
                est[k] = _mean_est(m_, se, acc.n, z)
                if k == acc.objective:
                    est[k] = _widened(est[k], acc, z, j)
        results.append(CandidateResult(
            Card(cands[j]), _is_trump(info, cands[j]), acc.n, est,
            Card(cands[equiv[j]]) if j in equiv else None,
            float(acc.best_count[j]) / acc.n if acc.n else None,
            float(acc.s1[acc.objective][j]) if exact else None))
    return results


def _trump_lead(acc: AnySums, cands: Sequence[int], order: Sequence[int], info: InfoSet,
                z: float, margin: float) -> tuple[Comparison | None, str]:
    """On lead with trumps and other cards: best trump lead minus best other lead (paired,
    on the objective); else None and why."""
    if info.trick or info.trump >= NO_TRUMPS:
        return None, ""
    tr = [j for j in order if _is_trump(info, cands[j])]
    other = [j for j in order if not _is_trump(info, cands[j])]
    holds_trumps = bool(info.my_hand & (0x1FFF << (13 * info.trump)))
    if tr and other:
        return Comparison(Card(cands[tr[0]]), Card(cands[other[0]]),
                          _pair_est(acc, tr[0], other[0], z), margin), ""
    legal = legal_cards(info)     # (the question is open when --cards left a side out)
    if holds_trumps and not tr and not any(_is_trump(info, c) for c in legal):
        return None, "a trump lead is not allowed here"
    if tr and not other and all(_is_trump(info, c) for c in legal):
        return None, "only trumps can be led"
    return None, ""


def trump_answer(c: Comparison | None) -> str | None:
    """"YES", "NO", "no practical difference" or "too close to call" for a trump-lead
    comparison (None: no such question here)."""
    if c is None:
        return None
    if c.verdict == "no practical difference":
        return c.verdict
    return "YES" if c.diff.lo > 0 else "NO" if c.diff.hi < 0 else "too close to call"


def _compare_models(acc: AnySums, acc_o: AnySums, cands: Sequence[int], info: InfoSet,
                    zs: tuple[float, float], margin: float,
                    ranked: tuple[list[int], dict[int, int], Comparison | None],
                    planned: int, rollouts: str = "heuristic") -> tuple[dict, list[str]]:
    """The rollouts' answer on the dd run's deals (``rollouts``: their policies), and the
    ``MODEL:`` lines (:func:`~catchten_sim.explain.model_lines`) when it differs from the
    double-dummy answer: on the best card when the two picks are not tied on every deal and
    at least one model separates its pick from the other's by more than the practical
    margin; on "lead a trump?" when the two lean opposite ways and at least one answers
    firmly (YES or NO). How firmly each holds its pick is the ``best:`` line's test (its
    pick against its own second; for dd that line's comparison, ``ranked`` from
    :func:`_ranked`), so the two never contradict. ``zs``: dd's and the rollouts'
    :func:`critical_value`."""
    z, z_o = zs
    order_d, equiv, own_d = ranked
    eq_o: dict[int, int] = {}
    order_o, second_o = _rank(acc_o, cands, eq_o)
    best_d, best_o = order_d[0], order_o[0]
    # cards tied with the best on every deal count as best too
    top_d = {best_d} | {j for j, b in equiv.items() if b == best_d}
    top_o = {best_o} | {j for j, b in eq_o.items() if b == best_o}
    tl_d, _ = _trump_lead(acc, cands, order_d, info, z, margin)
    tl_o, _ = _trump_lead(acc_o, cands, order_o, info, z_o, margin)
    n_o = acc_o.n

    def cmp(a: AnySums, zz: float, x: int, y: int | None) -> Comparison | None:
        return None if y is None else Comparison(Card(cands[x]), Card(cands[y]),
                                                 _pair_est(a, x, y, zz), margin)
    bounded = acc.bounds is not None and acc.bounds.n_bounded > 0
    own_o = cmp(acc_o, z_o, best_o, second_o)
    v_d, v_o = (None if c is None else c.verdict for c in (own_d, own_o))
    how_d = separation(v_d, z == 0 and not bounded, short=True)
    how_o = separation(v_o, z_o == 0, short=True)
    other = {
        "evaluator": "rollout", "objective": "diff", "policies": rollouts.split("/"),
        # the dd value's measure (the same as diff with two sides)
        "measure": measure_words("diff", "dd", info.rules.n_sides),
        "samples": n_o, "planned_samples": planned, "z": json_number(z_o, 4),
        "best": format_card(cands[best_o]),
        "second": None if second_o is None else format_card(cands[second_o]),
        "margin": None if own_o is None else own_o.to_dict(),
        "separation": separation(v_o, z_o == 0) or None,
        "trump_lead": None if tl_o is None else {**tl_o.to_dict(),
                                                  "answer": trump_answer(tl_o)},
        "candidates": [{"card": format_card(cands[j]),
                        "diff": _mean_est(*acc_o.mean_se("diff", j), n_o, z_o).to_dict()}
                       for j in order_o],
    }

    def firm(a: AnySums, zz: float, x: int, y: int) -> bool:
        # does the model rank x over y by more than the practical margin, at 95%?
        c = cmp(a, zz, x, y)
        return c is not None and c.verdict == "separated" and a.pair(x, y)[0] > margin
    card = trump = None
    if best_o not in top_d and best_d not in top_o and (
            firm(acc, z, best_d, best_o) or firm(acc_o, z_o, best_o, best_d)):
        card = (format_card(cands[best_d]), how_d, format_card(cands[best_o]), how_o)
    if tl_d is not None and tl_o is not None:
        a_d, a_o = trump_answer(tl_d), trump_answer(tl_o)
        if (tl_d.diff.mean > 0) != (tl_o.diff.mean > 0) and ("YES" in (a_d, a_o) or
                                                             "NO" in (a_d, a_o)):
            trump = (str(a_d), str(a_o))
    return other, model_lines(card, trump, rollouts, n_o, planned)


def _is_trump(info: InfoSet, c: int) -> bool:
    return info.trump < NO_TRUMPS and c // 13 == info.trump


def _ranked(acc: AnySums, cands: Sequence[int], equiv: dict[int, int], z: float,
            margin: float) -> tuple[list[int], dict[int, int], Comparison | None]:
    """:func:`_rank`'s order, ``equiv`` (filled) and the best card against its second
    (the ``best:`` line's comparison at critical value ``z``; None with one card)."""
    order, second = _rank(acc, cands, equiv)
    cmp = None if second is None else Comparison(
        Card(cands[order[0]]), Card(cands[second]), _pair_est(acc, order[0], second, z),
        margin)
    return order, equiv, cmp


def _rank(acc: AnySums, cands: Sequence[int], equiv: dict[int, int]
          ) -> tuple[list[int], int | None]:
    """Candidates best first by the objective (ties: lower card), and the best candidate
    not equivalent to the best (identical objective on every sample so far; dd: or a
    pair the solver values alike, :meth:`BoundedSums.tied`)."""
    k = acc.objective
    means = acc.s1[k] / max(acc.n, 1)
    order = sorted(range(len(cands)), key=lambda j: (-means[j], cands[j]))
    equiv.clear()
    best = order[0]
    second = None
    for j in order[1:]:
        # (dd: the bounds' midpoints are the objective; tied knows the solver's alike)
        if acc.bounds.tied(best, j) if acc.bounds is not None else acc.pair(best, j)[2] <= 1e-9:
            equiv[j] = best
        elif second is None:
            second = j
    return order, second
