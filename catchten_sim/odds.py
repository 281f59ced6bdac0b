"""The odds of a hand at the deal, before any card is played.

>>> from catchten_sim import Rules
>>> from catchten_sim.odds import odds
>>> o = odds(Rules("foster", 4), "JS AS 9S KH QH 7D 8C 9C TC", "7S", seat=0, dealer=3)
>>> o.n_deals, round(float(o.points.mean), 1)
(20000, 28.1)

Deals consistent with the hand, the turn-up and the dead cards are drawn uniformly
(:class:`catchten_sim.determinize.Sampler`) and played out from the first lead by the
rollout policies (:class:`catchten_sim.evaluators.RolloutEvaluator`); the measures and
their intervals are :mod:`catchten_sim.advise`'s, at a fixed sample size.
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

from ._kernels import rollout as KR
from .advise import (EXACT_MAX, MAX_BATCH, MAX_SAMPLES, Estimate, _mean_est, _measures,
                     _policies)
from .aggregate import json_number, mean_se, wilson
from .cards import Card, cards_of_mask, format_card, parse_cards
from .checks import check_count, check_seed, check_threads, max_threads
from .compile_notice import Stopwatch
from .determinize import Sampler
from .evaluators import RolloutEvaluator
from .policies import Policy
from .position import InfoSet, deal_info
from .rules import Rules, check_rules

__all__ = ["Odds", "odds"]


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
    diff : Estimate, our side's points minus the best opponents' (the opponents' with 2 sides)
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
            "distribution": {str(k): json_number(v, 6)
                             for k, v in sorted(self.distribution.items())},
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
    check_rules(rules)
    hand = parse_cards(hand, "hand")
    dead = parse_cards(dead, "dead")
    turnup = Card(turnup).idx if turnup is not None else turnup
    n_deals = check_count("deals", n_deals, 1, MAX_SAMPLES)
    seed = check_seed(seed)
    info = deal_info(rules, dealer=dealer, seat=seat, hand=hand, turnup=turnup, dead=dead)
    pols = _policies(rules, policy, opponents, seat)
    used = max_threads() if threads is None else check_threads(threads)
    sampler = Sampler(info)
    if exact_max is None:
        exact_max = EXACT_MAX["rollout"]
    exact = sampler.can_enumerate(check_count("exact_max", exact_max, 0, 10 ** 9))
    if exact:
        n_deals = sampler.n_deals
    ev = RolloutEvaluator(info, [KR.NO_CARD], pols, seed, used, where="odds")
    my_side = rules.side_of(seat)
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
